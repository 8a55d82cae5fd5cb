import Foundation
import HotColdProtocol

/// One `sync` command line: what `hotcold-sync` asks of the daemon that owns the database
/// (see PROTOCOL.md, "sync"). One type for every `op`, each op using some of the fields;
/// ``validate()`` checks, once and on the daemon's side, that the op has what it needs and
/// that every value is in range and within its size cap.
///
/// ```swift
/// let line = try SyncWire.line(SyncRequest(op: .next, after: 0))   // {"after":0,"cmd":"sync","op":"next"}
/// ```
public struct SyncRequest: Codable, Sendable, Equatable {
    public enum Op: String, Codable, Sendable, CaseIterable {
        /// The stored catalogue ETag.
        case etag
        /// The first pending outbox item after `after`.
        case next
        /// A slice of an item's payload (`id`, `offset`), for payloads too long for one line.
        case payload
        /// Count an attempt of item `id` at `at`.
        case begin
        /// Item `id` delivered: `status`, `response_base64`, `catalogue`, `at`.
        case delivered
        /// Item `id` refused for good: `status`, `message`, `response_base64`, `at`.
        case failed
        /// Item `id` to be retried: `message`, `status`, `next`, `not_before`.
        case retry
        /// Item `id` as it stands, without its payload.
        case item
        /// How many items wait, and when the first may go.
        case pending
        /// Start uploading a downloaded catalogue of `size` bytes (`etag`, `source`).
        case catalogueBegin = "catalogue_begin"
        /// The next piece (`upload`, `offset`, `data_base64`).
        case catalogueChunk = "catalogue_chunk"
        /// Apply the whole upload, all or nothing.
        case catalogueCommit = "catalogue_commit"
    }

    /// A rating's new figures from the server's reply, stored with the delivery.
    public struct RatingUpdate: Codable, Sendable, Equatable {
        public var placeId: String
        public var rating: Double?
        public var votes: Int?
        public init(placeId: String, rating: Double?, votes: Int?) {
            self.placeId = placeId
            self.rating = rating
            self.votes = votes
        }
    }

    public var cmd = "sync"
    public var op: Op
    public var after: Int64?
    public var id: Int64?
    public var at: Date?
    public var status: Int?
    public var message: String?
    public var responseBase64: String?
    public var catalogue: RatingUpdate?
    public var next: Date?
    public var notBefore: Date?
    public var offset: Int?
    public var size: Int?
    public var upload: Int?
    public var dataBase64: String?
    public var etag: String?
    public var source: String?

    public init(op: Op, after: Int64? = nil, id: Int64? = nil, at: Date? = nil, status: Int? = nil,
                message: String? = nil, response: Data? = nil, catalogue: RatingUpdate? = nil,
                next: Date? = nil, notBefore: Date? = nil, offset: Int? = nil, size: Int? = nil,
                upload: Int? = nil, data: Data? = nil, etag: String? = nil, source: String? = nil) {
        self.op = op
        self.after = after
        self.id = id
        self.at = at
        self.status = status
        self.message = message
        self.responseBase64 = response?.base64EncodedString()
        self.catalogue = catalogue
        self.next = next
        self.notBefore = notBefore
        self.offset = offset
        self.size = size
        self.upload = upload
        self.dataBase64 = data?.base64EncodedString()
        self.etag = etag
        self.source = source
    }

    /// `response_base64`, decoded (validated by ``validate()``).
    public var response: Data? { responseBase64.flatMap { Data(base64Encoded: $0) } }
    /// `data_base64`, decoded (validated by ``validate()``).
    public var data: Data? { dataBase64.flatMap { Data(base64Encoded: $0) } }
}

/// A `sync` request that is malformed or out of range; the message names the op and the field.
public struct SyncProtocolError: CodedError, Sendable, Equatable {
    public var message: String
    public var code: ErrorCode
    public init(_ message: String, code: ErrorCode = .badField) {
        self.message = message
        self.code = code
    }
    public var description: String { message }
}

extension SyncRequest {
    /// Checks what the op needs, ranges and caps. Called by the daemon on every request.
    public func validate() throws(SyncProtocolError) {
        let name = "sync \(op.rawValue)"
        func fail(_ field: String, _ why: String) -> SyncProtocolError { SyncProtocolError("\(name): \"\(field)\" \(why)") }
        func need<T>(_ v: T?, _ field: String) throws(SyncProtocolError) -> T {
            guard let v else { throw fail(field, "is required") }
            return v
        }
        func itemID() throws(SyncProtocolError) {
            guard try need(id, "id") >= 1 else { throw fail("id", "must be a positive item id") }
        }
        func time(_ d: Date?, _ field: String) throws(SyncProtocolError) {
            guard let d else { return }
            let t = d.timeIntervalSince1970
            guard t.isFinite, abs(t) <= SyncWire.maxAbsoluteTime else { throw fail(field, "must be a time between 1653 and 2286") }
        }
        func text(_ s: String?, _ field: String, max: Int) throws(SyncProtocolError) {
            guard let s else { return }
            guard s.utf8.count <= max else { throw fail(field, "is longer than \(max) bytes") }
        }
        func base64(_ s: String?, _ field: String, max: Int) throws(SyncProtocolError) {
            guard let s else { return }
            guard s.utf8.count <= (max + 2) / 3 * 4, let d = Data(base64Encoded: s) else {
                throw fail(field, "must be base64 of at most \(max) bytes")
            }
            guard d.count <= max else { throw fail(field, "must be base64 of at most \(max) bytes") }
        }
        func httpStatus() throws(SyncProtocolError) {
            if let status, !(100...599).contains(status) { throw fail("status", "must be an HTTP status 100–599") }
        }
        try time(at, "at")
        try time(next, "next")
        try time(notBefore, "not_before")
        try text(message, "message", max: SyncWire.maxMessageBytes)
        try text(etag, "etag", max: SyncWire.maxETagBytes)
        try text(source, "source", max: SyncWire.maxSourceBytes)
        try httpStatus()
        switch op {
        case .etag, .pending:
            break
        case .next:
            guard try need(after, "after") >= 0 else { throw fail("after", "must be 0 or an item id") }
        case .payload:
            try itemID()
            guard try need(offset, "offset") >= 0 else { throw fail("offset", "must be 0 or more") }
        case .begin, .item:
            try itemID()
        case .delivered:
            try itemID()
            _ = try need(status, "status")
            try base64(responseBase64, "response_base64", max: SyncWire.maxStoredResponseBytes)
            if let c = catalogue {
                guard !c.placeId.isEmpty, c.placeId.utf8.count <= SyncWire.maxPlaceIDBytes else {
                    throw fail("catalogue.place_id", "must be 1–\(SyncWire.maxPlaceIDBytes) bytes")
                }
                if let r = c.rating, !(r.isFinite && (0...5).contains(r)) { throw fail("catalogue.rating", "must be 0–5") }
                if let v = c.votes, !(0...SyncWire.maxVotes).contains(v) { throw fail("catalogue.votes", "must be 0–\(SyncWire.maxVotes)") }
            }
        case .failed:
            try itemID()
            _ = try need(message, "message")
            try base64(responseBase64, "response_base64", max: SyncWire.maxStoredResponseBytes)
        case .retry:
            try itemID()
            _ = try need(message, "message")
            _ = try need(next, "next")
        case .catalogueBegin:
            let size = try need(size, "size")
            guard (1...SyncWire.maxCatalogueBytes).contains(size) else {
                throw fail("size", "must be 1–\(SyncWire.maxCatalogueBytes) bytes")
            }
            _ = try need(source, "source")
        case .catalogueChunk:
            guard try need(upload, "upload") >= 1 else { throw fail("upload", "must be an upload id") }
            guard try need(offset, "offset") >= 0 else { throw fail("offset", "must be 0 or more") }
            try base64(try need(dataBase64, "data_base64"), "data_base64", max: SyncWire.chunkBytes)
        case .catalogueCommit:
            guard try need(upload, "upload") >= 1 else { throw fail("upload", "must be an upload id") }
        }
    }
}

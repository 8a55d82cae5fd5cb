import Foundation
import HotColdStore

/// How `sync` requests, replies and the `QUEUED` event travel: JSON lines with snake_case
/// keys and times as seconds since 1970; and the caps both sides hold to.
///
/// Why these caps: a request line is at most 64 KiB (the socket's line limit), so uploads go
/// in 40 KiB pieces (54 KiB of base64); replies stay well under a client's 1 MiB output
/// queue, so payloads come back in 192 KiB slices.
///
/// ```swift
/// let line = try SyncWire.line(SyncRequest(op: .pending))
/// let reply = try SyncWire.decodeReply(OutboxPendingSummary.self, op: .pending, from: text)
/// ```
public enum SyncWire {
    /// Raw bytes per `catalogue_chunk`.
    public static let chunkBytes = 40 << 10
    /// Raw bytes per `payload` slice, and the largest payload `next` carries inline.
    public static let payloadSliceBytes = 192 << 10
    /// The largest catalogue upload (as the API client's catalogue cap).
    public static let maxCatalogueBytes = 16 << 20
    /// The largest payload the sync process assembles (a 10 MiB photo in base64 JSON fits).
    public static let maxPayloadBytes = 16 << 20
    /// The server's reply kept with a delivered or failed item (longer replies are cut).
    public static let maxStoredResponseBytes = 32 << 10
    public static let maxMessageBytes = 2000
    public static let maxETagBytes = 512
    public static let maxSourceBytes = 2048
    public static let maxPlaceIDBytes = 200
    /// Largest catalogue vote count a delivery may report.
    public static let maxVotes = 1_000_000_000
    /// ±1e10 s around 1970: 1653 to 2286.
    public static let maxAbsoluteTime = 1e10
    /// Catalogue uploads in progress across all clients, in declared bytes.
    public static let maxUploadBytesInFlight = 16 << 20

    public static func encoder() -> JSONEncoder {
        let e = JSONEncoder()
        e.keyEncodingStrategy = .convertToSnakeCase
        e.dateEncodingStrategy = .secondsSince1970
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return e
    }

    public static func decoder() -> JSONDecoder {
        let d = JSONDecoder()
        d.keyDecodingStrategy = .convertFromSnakeCase
        d.dateDecodingStrategy = .secondsSince1970
        return d
    }

    /// A request as one line (no newline).
    public static func line(_ request: SyncRequest) throws -> String {
        String(decoding: try encoder().encode(request), as: UTF8.self)
    }

    /// The reply envelope: `{"class":"SYNC","op":…,"result":…}`.
    public struct Reply<Result: Codable & Sendable>: Codable, Sendable {
        public var `class` = "SYNC"
        public var op: SyncRequest.Op
        public var result: Result
        public init(op: SyncRequest.Op, result: Result) {
            self.op = op
            self.result = result
        }
    }

    public static func replyLine<R: Codable & Sendable>(op: SyncRequest.Op, _ result: R) throws -> String {
        String(decoding: try encoder().encode(Reply(op: op, result: result)), as: UTF8.self)
    }

    /// The result of a `SYNC` reply line, or the `ERROR`'s message thrown as ``SyncProtocolError``.
    public static func decodeReply<R: Codable & Sendable>(_ type: R.Type, op: SyncRequest.Op, from line: String) throws -> R {
        let data = Data(line.utf8)
        let head = try decoder().decode(Head.self, from: data)
        if head.class == "ERROR" { throw SyncProtocolError(head.message ?? "the daemon refused sync \(op.rawValue)") }
        guard head.class == "SYNC", head.op == op.rawValue else {
            throw SyncProtocolError("expected a SYNC reply to \(op.rawValue), got \(line.prefix(80))")
        }
        return try decoder().decode(Reply<R>.self, from: data).result
    }

    /// The class, op and message of any reply line.
    struct Head: Decodable { var `class`: String; var op: String?; var message: String? }
}

/// Results of the `sync` ops (see ``SyncRequest/Op``).
public enum SyncResult {
    public struct ETag: Codable, Sendable, Equatable {
        public var etag: String?
        public init(etag: String?) { self.etag = etag }
    }

    /// `next`: the item, its payload inline when it fits (else empty, fetched with `payload`).
    public struct Next: Codable, Sendable {
        public var item: OutboxItem?
        public var payloadBytes: Int
        public var payloadInline: Bool
        public init(item: OutboxItem?, payloadBytes: Int, payloadInline: Bool) {
            self.item = item
            self.payloadBytes = payloadBytes
            self.payloadInline = payloadInline
        }
    }

    public struct Slice: Codable, Sendable {
        public var dataBase64: String
        public var total: Int
        public init(data: Data, total: Int) {
            self.dataBase64 = data.base64EncodedString()
            self.total = total
        }
    }

    public struct Begun: Codable, Sendable { public var begun: Bool; public init(begun: Bool) { self.begun = begun } }
    public struct Done: Codable, Sendable { public var done = true; public init() {} }
    public struct Item: Codable, Sendable { public var item: OutboxItem?; public init(item: OutboxItem?) { self.item = item } }
    public struct Upload: Codable, Sendable {
        public var upload: Int
        public var received: Int
        public init(upload: Int, received: Int) {
            self.upload = upload
            self.received = received
        }
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HotColdCore

/// `sync`: what `hotcold-sync` asks of the daemon that owns the database — the outbox's state
/// machine and the catalogue's replacement. An ordinary command: decoded and checked here like
/// every other, ISO-8601 times, errors with codes; only writers may send it, and the ops that
/// change the database are charged to the write rate like every change.
///
/// The catalogue travels as every file does: `upload` (purpose `catalogue`) and `chunk`, then
/// `{"cmd":"sync","op":"catalogue","upload":…}` applies it, all or nothing.
///
/// ```json
/// {"cmd":"sync","op":"next","after":0}
/// {"cmd":"sync","op":"delivered","id":7,"status":201,"at":"2026-11-26T01:02:03.000Z"}
/// ```
public struct SyncRequest: RequestBody {
    public enum Operation: Sendable, Equatable {
        /// The stored catalogue ETag.
        case etag
        /// The first pending outbox item after `after` (0: from the start).
        case next(after: Int64)
        /// A slice of an item's payload, for payloads too long for one reply.
        case payload(id: Int64, offset: Int)
        /// Item `id` as it stands, without its payload.
        case item(id: Int64)
        /// How many items wait, and when the first may go.
        case pending
        /// Count an attempt of item `id`.
        case begin(id: Int64, at: Date?)
        /// Item `id` delivered: the server's status and reply, and a rating's new figures.
        case delivered(id: Int64, status: Int, response: Data?, catalogue: RatingUpdate?, at: Date?)
        /// Item `id` refused for good.
        case failed(id: Int64, status: Int?, message: String, response: Data?, at: Date?)
        /// Item `id` to be tried again at `next` (and not before the server's `notBefore`).
        case retry(id: Int64, message: String, status: Int?, next: Date, notBefore: Date?)
        /// Apply a completed `catalogue` upload as the whole catalogue.
        case catalogue(upload: String, etag: String?, source: String)

        public var name: String {
            switch self {
            case .etag: "etag"
            case .next: "next"
            case .payload: "payload"
            case .item: "item"
            case .pending: "pending"
            case .begin: "begin"
            case .delivered: "delivered"
            case .failed: "failed"
            case .retry: "retry"
            case .catalogue: "catalogue"
            }
        }

        /// Whether the op changes the database (and so is charged to the write rate).
        public var changes: Bool {
            switch self {
            case .etag, .next, .payload, .item, .pending: false
            case .begin, .delivered, .failed, .retry, .catalogue: true
            }
        }

        static let names = ["etag", "next", "payload", "item", "pending", "begin", "delivered", "failed", "retry", "catalogue"]
    }

    /// A rating's new figures from the server's reply, stored with the delivery.
    public struct RatingUpdate: Sendable, Equatable {
        public var placeId: String
        public var rating: Double?
        public var votes: Int?
        public init(placeId: String, rating: Double?, votes: Int?) {
            self.placeId = placeId
            self.rating = rating
            self.votes = votes
        }
    }

    public var op: Operation

    public init(_ op: Operation) { self.op = op }

    init(_ decoder: any Decoder) throws(ProtocolError) {
        // Every field any op takes; each op then reads what it needs and refuses what it does not.
        let all: Set<String> = ["op", "after", "id", "offset", "at", "status", "response", "catalogue", "message",
                                "next", "not_before", "upload", "etag", "source"]
        let head = try Fields(decoder, command: "sync", allowed: all)
        let name = try head.required(try head.choice("op", Operation.names), "op", Operation.names.joined(separator: ", "))
        // The ERROR names the command (`sync`); the field named is the op's own.
        let f = try Fields(decoder, command: "sync", allowed: Self.fields(name).union(["op"]))
        func itemID() throws(ProtocolError) -> Int64 {
            Int64(try f.required(try f.integer("id", in: 1...Limits.maxInteger), "id", "an outbox item id"))
        }
        func status() throws(ProtocolError) -> Int? { try f.integer("status", in: 100...599) }
        func message() throws(ProtocolError) -> String {
            try f.requiredString("message", max: SyncLimits.messageLength, what: "what went wrong")
        }
        func response() throws(ProtocolError) -> Data? {
            guard let text = try f.string("response", max: (SyncLimits.storedResponseBytes + 2) / 3 * 4, allowEmpty: true) else { return nil }
            guard let d = Data(base64Encoded: text) else { throw ProtocolError(.badField, command: "sync", field: "response", "not base64") }
            guard d.count <= SyncLimits.storedResponseBytes else {
                throw ProtocolError(.tooLarge, command: "sync", field: "response", "at most \(SyncLimits.storedResponseBytes) bytes")
            }
            return d
        }
        switch name {
        case "etag": op = .etag
        case "pending": op = .pending
        case "next": op = .next(after: Int64(try f.required(try f.integer("after", in: 0...Limits.maxInteger), "after", "0 or an item id")))
        case "payload":
            op = .payload(id: try itemID(), offset: try f.required(try f.integer("offset", in: 0...Limits.maxInteger), "offset", "0 or more"))
        case "item": op = .item(id: try itemID())
        case "begin": op = .begin(id: try itemID(), at: try f.time("at"))
        case "delivered":
            let update = try f.object("catalogue", allowed: ["place_id", "rating", "votes"]) { (c: Fields) throws(ProtocolError) in
                RatingUpdate(placeId: try c.requiredString("place_id", max: Limits.idLength, what: "the Big Thing's id"),
                             rating: try c.number("rating", in: 0...5),
                             votes: try c.integer("votes", in: 0...SyncLimits.maxVotes))
            }
            op = .delivered(id: try itemID(), status: try f.required(try status(), "status", "the HTTP status, 100–599"),
                            response: try response(), catalogue: update, at: try f.time("at"))
        case "failed":
            op = .failed(id: try itemID(), status: try status(), message: try message(), response: try response(), at: try f.time("at"))
        case "retry":
            op = .retry(id: try itemID(), message: try message(), status: try status(),
                        next: try f.required(try f.time("next"), "next", "when to try again"), notBefore: try f.time("not_before"))
        default:
            op = .catalogue(upload: try f.requiredString("upload", max: Limits.idLength, what: "the upload id from UPLOAD"),
                            etag: try f.string("etag", max: SyncLimits.etagLength, allowEmpty: true),
                            source: try f.requiredString("source", max: SyncLimits.sourceLength, what: "the catalogue's URL"))
        }
    }

    /// The fields each op takes.
    static func fields(_ op: String) -> Set<String> {
        switch op {
        case "next": ["after"]
        case "payload": ["id", "offset"]
        case "item": ["id"]
        case "begin": ["id", "at"]
        case "delivered": ["id", "status", "response", "catalogue", "at"]
        case "failed": ["id", "status", "message", "response", "at"]
        case "retry": ["id", "message", "status", "next", "not_before"]
        case "catalogue": ["upload", "etag", "source"]
        default: []
        }
    }

    func encode(to encoder: any Encoder) throws {
        var w = try FieldWriter(encoder, command: "sync")
        try w.put("op", op.name)
        func time(_ d: Date?) -> String? { d.map(ISO8601.format) }
        switch op {
        case .etag, .pending: break
        case .next(let after): try w.put("after", after)
        case .payload(let id, let offset): try w.put("id", id); try w.put("offset", offset)
        case .item(let id): try w.put("id", id)
        case .begin(let id, let at): try w.put("id", id); try w.put("at", time(at))
        case .delivered(let id, let status, let response, let catalogue, let at):
            try w.put("id", id)
            try w.put("status", status)
            try w.put("response", response?.base64EncodedString())
            try w.put("catalogue", catalogue.map(RatingFields.init))
            try w.put("at", time(at))
        case .failed(let id, let status, let message, let response, let at):
            try w.put("id", id)
            try w.put("status", status)
            try w.put("message", message)
            try w.put("response", response?.base64EncodedString())
            try w.put("at", time(at))
        case .retry(let id, let message, let status, let next, let notBefore):
            try w.put("id", id)
            try w.put("message", message)
            try w.put("status", status)
            try w.put("next", time(next))
            try w.put("not_before", time(notBefore))
        case .catalogue(let upload, let etag, let source):
            try w.put("upload", upload)
            try w.put("etag", etag)
            try w.put("source", source)
        }
    }

    /// The rating update with literal keys, as the request carries it.
    struct RatingFields: Encodable {
        var u: RatingUpdate
        init(_ u: RatingUpdate) { self.u = u }
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: AnyKey.self)
            try c.encode(u.placeId, forKey: AnyKey("place_id"))
            try c.encodeIfPresent(u.rating, forKey: AnyKey("rating"))
            try c.encodeIfPresent(u.votes, forKey: AnyKey("votes"))
        }
    }
}

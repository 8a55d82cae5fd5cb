import Foundation
import HotColdProtocol
import Synchronization

/// The outbox and the catalogue through the daemon's socket (the `sync` command, PROTOCOL.md):
/// what `hotcold-sync` uses on an installed system, where only the daemon can open its
/// database. The daemon checks every request; this side keeps within the same caps (long
/// messages and replies are cut, a rating outside 0–5 from the server is not passed on) so
/// that a strange reply from the web API can never make an outcome unrecordable.
///
/// ```swift
/// let store = DaemonOutboxStore(socketPath: "/run/hotcold/hotcold.sock")
/// let syncer = Syncer(store: store, client: client)
/// ```
public final class DaemonOutboxStore: OutboxStore {
    public let session: SyncSession
    /// The item last read whose body is too long for one reply (a submission with a photo), and
    /// that body's length: read a slice at a time as it is sent (``bodyStream(for:)``).
    private let streamed = Mutex<(id: Int64, bytes: Int)?>(nil)

    public init(socketPath: String, timeout: Double = 60) {
        session = SyncSession(path: socketPath, timeout: timeout)
    }

    public var location: String { "the daemon at \(session.path)" }

    public func catalogueETag() throws -> String? {
        try session.call(.etag, as: SyncResult.ETag.self).etag
    }

    /// Uploads the catalogue as any file goes to the daemon, then asks it to apply it all at once.
    public func applyCatalogue(_ data: Data, etag: String?, source: String, user: String) throws -> SyncResult.Catalogue {
        guard !data.isEmpty, data.count <= SyncLimits.catalogueBytes else {
            throw SyncSession.Failure(description: "the catalogue is \(data.count) bytes; the daemon takes 1–\(SyncLimits.catalogueBytes)")
        }
        let upload = try session.upload(data, purpose: .catalogue)
        return try session.call(.catalogue(upload: upload, etag: etag.flatMap { $0.count <= SyncLimits.etagLength ? $0 : nil },
                                           source: Self.cut(source, SyncLimits.sourceLength)),
                                as: SyncResult.Catalogue.self)
    }

    /// The next item. A body too long for one reply (a photo's base64 inside) is not read
    /// here: it is read from the daemon a slice at a time while it is sent (``bodyStream(for:)``),
    /// so hotcold-sync never holds a whole photo.
    public func nextQueuedRequest(after afterID: Int64) throws -> QueuedRequest? {
        let next = try session.call(.next(after: afterID), as: SyncResult.Next.self)
        guard var item = next.item else { return nil }
        if next.payloadInline {
            streamed.withLock { $0 = nil }
            return item
        }
        guard (1...SyncLimits.maxPayloadBytes).contains(next.payloadBytes) else {
            throw SyncSession.Failure(description: "outbox item \(item.id)'s payload is \(next.payloadBytes) bytes, over \(SyncLimits.maxPayloadBytes)")
        }
        item.payload = Data()
        streamed.withLock { $0 = (item.id, next.payloadBytes) }
        return item
    }

    public func bodyStream(for item: QueuedRequest) -> APIRequest.Stream? {
        guard item.payload.isEmpty, let (id, bytes) = streamed.withLock({ $0 }), id == item.id else { return nil }
        let session = session
        return APIRequest.Stream(length: bytes) { offset in
            let slice = try session.call(.payload(id: id, offset: offset), as: SyncResult.Slice.self)
            guard !slice.data.isEmpty, slice.total == bytes, slice.data.count <= bytes - offset else {
                throw SyncSession.Failure(description: "outbox item \(id)'s payload changed or was cut while being sent")
            }
            return slice.data
        }
    }

    public func beginOutboxAttempt(id: Int64, at now: Date) throws -> Bool {
        try session.call(.begin(id: id, at: now), as: SyncResult.Begun.self).begun
    }

    public func markOutboxDelivered(id: Int64, status: Int, response: Data,
                                    catalogue: (placeID: String, rating: Double?, votes: Int?)?, at now: Date) throws {
        let update = catalogue.flatMap { c -> SyncRequest.RatingUpdate? in
            guard !c.placeID.isEmpty, c.placeID.count <= Limits.idLength else { return nil }
            return .init(placeId: c.placeID,
                         rating: c.rating.flatMap { $0.isFinite && (0...5).contains($0) ? $0 : nil },
                         votes: c.votes.flatMap { (0...SyncLimits.maxVotes).contains($0) ? $0 : nil })
        }
        _ = try session.call(.delivered(id: id, status: Self.status(status), response: Self.kept(response),
                                        catalogue: update, at: now), as: SyncResult.Done.self)
    }

    public func markOutboxFailed(id: Int64, status: Int?, message: String, response: Data?, at now: Date) throws {
        _ = try session.call(.failed(id: id, status: status.map(Self.status), message: Self.cut(message, SyncLimits.messageLength),
                                     response: response.map(Self.kept), at: now), as: SyncResult.Done.self)
    }

    public func scheduleOutboxRetry(id: Int64, error: String, status: Int?, next: Date, notBefore: Date?) throws {
        _ = try session.call(.retry(id: id, message: Self.cut(error, SyncLimits.messageLength), status: status.map(Self.status),
                                    next: next, notBefore: notBefore), as: SyncResult.Done.self)
    }

    public func queuedRequest(id: Int64) throws -> QueuedRequest? {
        try session.call(.item(id: id), as: SyncResult.Item.self).item
    }

    public func pendingOutbox() throws -> SyncResult.Pending {
        try session.call(.pending, as: SyncResult.Pending.self)
    }

    /// At most `max` characters, cut with an ellipsis (a message is checked in characters).
    static func cut(_ s: String, _ max: Int) -> String {
        guard s.count > max else { return s }
        return String(s.prefix(max - 1)) + "…"
    }

    /// The part of a server's reply the daemon keeps.
    static func kept(_ d: Data) -> Data { Data(d.prefix(SyncLimits.storedResponseBytes)) }

    /// HTTP statuses outside 100–599 are not HTTP: recorded as 599 (the server's own figure is in the message).
    static func status(_ s: Int) -> Int { (100...599).contains(s) ? s : 599 }
}

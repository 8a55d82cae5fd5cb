import Foundation
import HotColdStore
import HotColdSyncProtocol

/// The outbox and the catalogue through the daemon's socket (`sync` command, PROTOCOL.md):
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
    public let link: DaemonLink

    public init(socketPath: String, timeout: Double = 60) {
        link = DaemonLink(path: socketPath, timeout: timeout)
    }

    public var location: String { "the daemon at \(link.path)" }

    func call<R: Codable & Sendable>(_ request: SyncRequest, _ type: R.Type) throws -> R {
        let reply = try link.call(try SyncWire.line(request))
        return try SyncWire.decodeReply(R.self, op: request.op, from: reply)
    }

    public func catalogueETag() throws -> String? {
        try call(SyncRequest(op: .etag), SyncResult.ETag.self).etag
    }

    /// Uploads in ``SyncWire/chunkBytes`` pieces, then asks the daemon to apply it all at once.
    public func applyCatalogue(_ data: Data, etag: String?, source: String, user: String) throws -> CatalogueSyncReport {
        guard !data.isEmpty, data.count <= SyncWire.maxCatalogueBytes else {
            throw SyncProtocolError("the catalogue is \(data.count) bytes; the daemon takes 1–\(SyncWire.maxCatalogueBytes)")
        }
        let etag = etag.flatMap { $0.utf8.count <= SyncWire.maxETagBytes ? $0 : nil }
        let begun = try call(SyncRequest(op: .catalogueBegin, size: data.count, etag: etag,
                                         source: Self.cut(source, SyncWire.maxSourceBytes)), SyncResult.Upload.self)
        var offset = 0
        while offset < data.count {
            let end = min(offset + SyncWire.chunkBytes, data.count)
            let r = try call(SyncRequest(op: .catalogueChunk, offset: offset, upload: begun.upload,
                                         data: data.subdata(in: offset..<end)), SyncResult.Upload.self)
            guard r.received == end else { throw SyncProtocolError("the daemon has \(r.received) bytes of the catalogue, expected \(end)") }
            offset = end
        }
        return try call(SyncRequest(op: .catalogueCommit, upload: begun.upload), CatalogueSyncReport.self)
    }

    public func nextPendingOutboxItem(after afterID: Int64) throws -> OutboxItem? {
        let next = try call(SyncRequest(op: .next, after: afterID), SyncResult.Next.self)
        guard var item = next.item, let id = item.id else { return nil }
        if next.payloadInline { return item }
        guard (0...SyncWire.maxPayloadBytes).contains(next.payloadBytes) else {
            throw SyncProtocolError("outbox item \(id)'s payload is \(next.payloadBytes) bytes, over \(SyncWire.maxPayloadBytes)")
        }
        var payload = Data()
        payload.reserveCapacity(next.payloadBytes)
        while payload.count < next.payloadBytes {
            let slice = try call(SyncRequest(op: .payload, id: id, offset: payload.count), SyncResult.Slice.self)
            guard let bytes = Data(base64Encoded: slice.dataBase64), !bytes.isEmpty,
                  slice.total == next.payloadBytes, bytes.count <= next.payloadBytes - payload.count else {
                throw SyncProtocolError("outbox item \(id)'s payload changed or was cut while being read")
            }
            payload.append(bytes)
        }
        item.payload = payload
        return item
    }

    public func beginOutboxAttempt(id: Int64, at now: Date) throws -> Bool {
        try call(SyncRequest(op: .begin, id: id, at: now), SyncResult.Begun.self).begun
    }

    public func markOutboxDelivered(id: Int64, status: Int, response: Data,
                                    catalogue: (placeID: String, rating: Double?, votes: Int?)?, at now: Date) throws {
        let update = catalogue.flatMap { c -> SyncRequest.RatingUpdate? in
            guard !c.placeID.isEmpty, c.placeID.utf8.count <= SyncWire.maxPlaceIDBytes else { return nil }
            return .init(placeId: c.placeID,
                         rating: c.rating.flatMap { $0.isFinite && (0...5).contains($0) ? $0 : nil },
                         votes: c.votes.flatMap { (0...1_000_000_000).contains($0) ? $0 : nil })
        }
        _ = try call(SyncRequest(op: .delivered, id: id, at: now, status: Self.status(status),
                                 response: response.prefix(SyncWire.maxStoredResponseBytes), catalogue: update),
                     SyncResult.Done.self)
    }

    public func markOutboxFailed(id: Int64, status: Int?, message: String, response: Data?, at now: Date) throws {
        _ = try call(SyncRequest(op: .failed, id: id, at: now, status: status.map(Self.status),
                                 message: Self.cut(message, SyncWire.maxMessageBytes),
                                 response: response?.prefix(SyncWire.maxStoredResponseBytes)), SyncResult.Done.self)
    }

    public func scheduleOutboxRetry(id: Int64, error: String, status: Int?, next: Date, notBefore: Date?) throws {
        _ = try call(SyncRequest(op: .retry, id: id, status: status.map(Self.status),
                                 message: Self.cut(error, SyncWire.maxMessageBytes), next: next, notBefore: notBefore),
                     SyncResult.Done.self)
    }

    public func outboxItem(id: Int64) throws -> OutboxItem? {
        try call(SyncRequest(op: .item, id: id), SyncResult.Item.self).item
    }

    public func pendingOutbox() throws -> OutboxPendingSummary {
        try call(SyncRequest(op: .pending), OutboxPendingSummary.self)
    }

    /// At most `max` bytes of UTF-8, cut at a character boundary.
    static func cut(_ s: String, _ max: Int) -> String {
        guard s.utf8.count > max else { return s }
        var out = ""
        for ch in s {
            guard out.utf8.count + ch.utf8.count <= max - 3 else { break }
            out.append(ch)
        }
        return out + "…"
    }

    /// HTTP statuses outside 100–599 are not HTTP: recorded as 599 (the server's own figure is in the message).
    static func status(_ s: Int) -> Int { (100...599).contains(s) ? s : 599 }
}

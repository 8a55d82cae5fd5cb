import Foundation
import HotColdProtocol
import HotColdStore

/// The `sync` command's ops against the store, on behalf of `hotcold-sync` (see
/// ``SyncRequest`` and PROTOCOL.md): the outbox's state machine, the catalogue's ETag, and the
/// all-or-nothing replacement of the catalogue from a completed `catalogue` upload. The
/// request was checked when it was decoded; authorisation, write charging and running off the
/// socket's thread are the router's (``DaemonCommands``).
///
/// ```swift
/// let line = try rpc.run(.next(after: 0), catalogue: nil, user: "hotcold")   // {"class":"SYNC","op":"next","result":{…}}
/// ```
struct OutboxSyncRPC {
    let store: Store
    /// Where submissions' photos wait (nil: none are kept in files).
    var photos: PhotoStore?

    /// The reply line to `op`. For `catalogue`, `upload` is the staged file's bytes and
    /// `details` stages the whole report when the reply carries a summary.
    public func run(_ op: SyncRequest.Operation, upload: () throws -> Data, user: String,
             details: (SyncResult.Catalogue) -> String?) throws -> String {
        func reply<T: Codable & Sendable>(_ v: T) -> String { WireCoding.line(ResultReply(.sync, op: op.name, result: v)) }
        let now = Date()
        switch op {
        case .etag:
            return reply(SyncResult.ETag(etag: try store.syncValue(Store.catalogueETagKey)))
        case .next(var after):
            // The body as sent: a photo kept in a file goes into it as base64 here, a slice at a
            // time (`payload`), so hotcold-sync reads the same bytes either way.
            while true {
                guard let (item, stored) = try store.nextPendingOutboxHead(after: after, inlineUpTo: SyncLimits.payloadSliceBytes) else {
                    return reply(SyncResult.Next(item: nil, payloadBytes: 0, payloadInline: true))
                }
                guard let body = try photoBody(item) else {
                    let inline = stored <= SyncLimits.payloadSliceBytes
                    return reply(SyncResult.Next(item: QueuedRequest(item, payload: inline ? nil : Data()),
                                                 payloadBytes: stored, payloadInline: inline))
                }
                guard let photos, let name = item.photoFile, photos.holds(name, bytes: body.photoBytes) else {
                    // Nothing can send it as it was submitted: said once, and the rest go on.
                    try store.markOutboxFailed(id: item.id ?? 0, status: nil,
                                               message: "its photo is no longer on the box (removed or changed in \(photos?.directory ?? "the photo directory"))",
                                               response: nil, at: now)
                    if let name = item.photoFile { photos?.remove(name) }
                    after = item.id ?? after + 1
                    continue
                }
                let inline = body.count <= SyncLimits.payloadSliceBytes
                let whole = inline ? try body.slice(from: 0, count: body.count) { try photos.read(name, bytes: body.photoBytes, offset: $0, count: $1) } : Data()
                return reply(SyncResult.Next(item: QueuedRequest(item, payload: inline ? whole : Data()),
                                             payloadBytes: body.count, payloadInline: inline))
            }
        case .payload(let id, let offset):
            if let layout = try store.outboxPhotoLayout(id: id), let photos {
                let name = layout.file
                guard (0...layout.payload.count).contains(layout.at) else {
                    throw ProtocolError(.internal, command: "sync", "outbox item \(id) has no place for its photo")
                }
                let body = PhotoBody(payload: layout.payload, at: layout.at, photoBytes: layout.bytes)
                guard offset <= body.count else {
                    throw ProtocolError(.outOfRange, command: "sync", field: "offset", "past the end (\(body.count) bytes)")
                }
                let data = try body.slice(from: offset, count: SyncLimits.payloadSliceBytes) {
                    try photos.read(name, bytes: body.photoBytes, offset: $0, count: $1)
                }
                return reply(SyncResult.Slice(data: data, total: body.count))
            }
            guard let slice = try store.outboxPayloadSlice(id: id, offset: offset, length: SyncLimits.payloadSliceBytes) else {
                throw ProtocolError(.notFound, command: "sync", field: "id", "no outbox item \(id)")
            }
            return reply(SyncResult.Slice(data: slice.data, total: slice.total))
        case .item(let id):
            return reply(SyncResult.Item(item: try store.outboxItem(id: id).map { QueuedRequest($0, payload: Data()) }))
        case .pending:
            return reply(try store.outboxPendingSummary().payload)
        case .begin(let id, let at):
            return reply(SyncResult.Begun(begun: try store.beginOutboxAttempt(id: id, at: at ?? now)))
        case .delivered(let id, let status, let response, let c, let at):
            let photo = try store.outboxPhotoFile(id: id)
            try store.markOutboxDelivered(id: id, status: status, response: response ?? Data(),
                                          catalogue: c.map { ($0.placeId, $0.rating, $0.votes) }, at: at ?? now)
            // Committed: the photo has gone where it was going.
            if let photo { photos?.remove(photo) }
            return reply(SyncResult.Done())
        case .failed(let id, let status, let message, let response, let at):
            let photo = try store.outboxPhotoFile(id: id)
            try store.markOutboxFailed(id: id, status: status, message: message, response: response, at: at ?? now)
            if let photo { photos?.remove(photo) }
            return reply(SyncResult.Done())
        case .retry(let id, let message, let status, let next, let notBefore):
            try store.scheduleOutboxRetry(id: id, error: message, status: status, next: next, notBefore: notBefore)
            return reply(SyncResult.Done())
        case .catalogue(_, let etag, let source):
            let report = try store.applyCatalogue(try upload(), etag: etag, source: source, user: user)
            // A summary: a 10,000-row catalogue's full lists would pass the client's queue. The
            // whole report is a download away.
            var summary = report.summarised(maxRows: SyncLimits.reportRows)
            if summary != report { summary.details = details(report.payload) }
            return reply(summary.payload)
        }
    }

    /// The layout of an item's body when its photo is kept in a file; nil for any other item.
    /// The item must be the one read (its payload whole: it is small, the photo being apart).
    func photoBody(_ item: OutboxItem) throws -> PhotoBody? {
        guard item.photoFile != nil, let bytes = item.photoBytes, let at = item.photoAt else { return nil }
        guard (0...item.payload.count).contains(at) else {
            throw ProtocolError(.internal, command: "sync", "outbox item \(item.id ?? 0) has no place for its photo")
        }
        return PhotoBody(payload: item.payload, at: at, photoBytes: bytes)
    }
}

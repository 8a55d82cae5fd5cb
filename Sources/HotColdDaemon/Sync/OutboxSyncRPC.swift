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

    /// The reply line to `op`. For `catalogue`, `upload` is the staged file's bytes and
    /// `details` stages the whole report when the reply carries a summary.
    public func run(_ op: SyncRequest.Operation, upload: () throws -> Data, user: String,
             details: (SyncResult.Catalogue) -> String?) throws -> String {
        func reply<T: Codable & Sendable>(_ v: T) -> String { WireCoding.line(ResultReply(.sync, op: op.name, result: v)) }
        let now = Date()
        switch op {
        case .etag:
            return reply(SyncResult.ETag(etag: try store.syncValue(Store.catalogueETagKey)))
        case .next(let after):
            guard let item = try store.nextPendingOutboxItem(after: after) else {
                return reply(SyncResult.Next(item: nil, payloadBytes: 0, payloadInline: true))
            }
            let bytes = item.payload.count
            let inline = bytes <= SyncLimits.payloadSliceBytes
            return reply(SyncResult.Next(item: QueuedRequest(item, payload: inline ? nil : Data()),
                                         payloadBytes: bytes, payloadInline: inline))
        case .payload(let id, let offset):
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
            try store.markOutboxDelivered(id: id, status: status, response: response ?? Data(),
                                          catalogue: c.map { ($0.placeId, $0.rating, $0.votes) }, at: at ?? now)
            return reply(SyncResult.Done())
        case .failed(let id, let status, let message, let response, let at):
            try store.markOutboxFailed(id: id, status: status, message: message, response: response, at: at ?? now)
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
}

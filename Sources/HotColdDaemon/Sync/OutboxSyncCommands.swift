import Foundation
import HotColdStore
import HotColdSyncProtocol

/// The `sync` command's ops, run against the daemon's store on behalf of `hotcold-sync`
/// (see ``SyncRequest/Op`` and PROTOCOL.md): the outbox's state machine, the catalogue's
/// ETag and its chunked, all-or-nothing replacement. The request is validated before it
/// gets here.
///
/// ```swift
/// let line = try commands.run(request, client: client)    // {"class":"SYNC","op":"next","result":{…}}
/// ```
final class OutboxSyncCommands: Sendable {
    let store: Store
    let uploads = CatalogueUploads()
    let announcer: OutboxAnnouncer
    /// Where a commit's whole report is offered for download when its reply is a summary.
    let staging: UploadStaging?

    /// Ids and issues listed in a `catalogue_commit` reply (with full counts beside any list
    /// cut short); the store's log of the sync says the rest.
    static let reportRows = 100

    init(store: Store, announcer: OutboxAnnouncer, staging: UploadStaging? = nil) {
        self.store = store
        self.announcer = announcer
        self.staging = staging
    }

    func run(_ r: SyncRequest, client: ClientInfo) throws -> String {
        // validate() has checked that each op's fields are present: `!` below cannot fail.
        let now = Date()
        switch r.op {
        case .etag:
            return try SyncWire.replyLine(op: r.op, SyncResult.ETag(etag: store.syncValue(Store.catalogueETagKey)))
        case .next:
            guard var item = try store.nextPendingOutboxItem(after: r.after!) else {
                return try SyncWire.replyLine(op: r.op, SyncResult.Next(item: nil, payloadBytes: 0, payloadInline: true))
            }
            let bytes = item.payload.count
            let inline = bytes <= SyncWire.payloadSliceBytes
            if !inline { item.payload = Data() }
            return try SyncWire.replyLine(op: r.op, SyncResult.Next(item: item, payloadBytes: bytes, payloadInline: inline))
        case .payload:
            guard let slice = try store.outboxPayloadSlice(id: r.id!, offset: r.offset!, length: SyncWire.payloadSliceBytes) else {
                throw SyncProtocolError("sync payload: no outbox item \(r.id!)", code: .notFound)
            }
            return try SyncWire.replyLine(op: r.op, SyncResult.Slice(data: slice.data, total: slice.total))
        case .begin:
            return try SyncWire.replyLine(op: r.op, SyncResult.Begun(begun: store.beginOutboxAttempt(id: r.id!, at: r.at ?? now)))
        case .delivered:
            try store.markOutboxDelivered(id: r.id!, status: r.status!, response: r.response ?? Data(),
                                          catalogue: r.catalogue.map { ($0.placeId, $0.rating, $0.votes) }, at: r.at ?? now)
            announcer.storeChanged()
            return try SyncWire.replyLine(op: r.op, SyncResult.Done())
        case .failed:
            try store.markOutboxFailed(id: r.id!, status: r.status, message: r.message!, response: r.response, at: r.at ?? now)
            announcer.storeChanged()
            return try SyncWire.replyLine(op: r.op, SyncResult.Done())
        case .retry:
            try store.scheduleOutboxRetry(id: r.id!, error: r.message!, status: r.status, next: r.next!, notBefore: r.notBefore)
            return try SyncWire.replyLine(op: r.op, SyncResult.Done())
        case .item:
            var item = try store.outboxItem(id: r.id!)
            item?.payload = Data()
            return try SyncWire.replyLine(op: r.op, SyncResult.Item(item: item))
        case .pending:
            return try SyncWire.replyLine(op: r.op, store.outboxPendingSummary())
        case .catalogueBegin:
            let id = try uploads.begin(client: client.id, size: r.size!, etag: r.etag, source: r.source!)
            return try SyncWire.replyLine(op: r.op, SyncResult.Upload(upload: id, received: 0))
        case .catalogueChunk:
            let received = try uploads.append(client: client.id, upload: r.upload!, offset: r.offset!, data: r.data ?? Data())
            return try SyncWire.replyLine(op: r.op, SyncResult.Upload(upload: r.upload!, received: received))
        case .catalogueCommit:
            let u = try uploads.take(client: client.id, upload: r.upload!)
            let report = try store.applyCatalogue(u.data, etag: u.etag, source: u.source,
                                                  user: client.userName ?? "uid\(client.uid)")
            // A summary: a 10,000-row catalogue's full lists would pass the client's queue. The
            // whole report is a download away; the commit is done, so staging it may fail quietly.
            var summary = report.summarised(maxRows: Self.reportRows)
            if summary != report {
                summary.details = try? staging?.export(client: client.id, user: client.recordedName) { write in
                    try write(SyncWire.encoder().encode(report))
                }.id
            }
            return try SyncWire.replyLine(op: r.op, summary)
        }
    }
}

import ArgumentParser
import Foundation
import HotColdConfig
import HotColdStore
import HotColdSync

struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Bring the Big Things catalogue up to date, then send queued ratings and submissions.",
        discussion: """
            Downloads the catalogue when it changed (Big Things the server no longer lists are marked \
            withdrawn, never deleted), then delivers the outbox in order, each item exactly once. \
            Items the server cannot take now stay queued for the next sync.
            Exits non-zero when the server cannot be reached.
            Works on the database file given with --db; with hotcoldd running, hotcold-sync keeps \
            the daemon's database in step.
            Example: hotcold sync --db trip.sqlite --api https://bigthings.example/api
            """)

    @OptionGroup var options: StoreOptions
    @OptionGroup var apiOptions: APIOptions

    func run() async throws {
        let client = try apiOptions.client()
        // The daemon's database is hotcold-sync's to keep in step; this command syncs a file.
        guard options.db != nil else {
            throw CLIError("works on a database file: give --db PATH (with hotcoldd running, hotcold-sync keeps its database in step)", code: .usage)
        }
        let store = try options.openStore()
        let syncer = Syncer(store: store, client: client,
                            options: .init(maxWait: apiOptions.maxWait, honourBackoff: false))
        // The catalogue download and the deliveries are one call with no byte counts to show:
        // say what is being waited for, on a terminal only.
        let progress = ProgressLine("sync")
        progress.phase("catalogue and outbox with \(client.baseURL.host ?? client.baseURL.absoluteString)…")
        let report = await syncer.sync()
        progress.finish()
        if options.json { try Output.json(Summary(report)) } else { print(report.summary) }
        if let problem = report.unreachable { throw CLIError(problem, code: .unavailable) }
    }

    /// `--json`: the report for scripts.
    struct Summary: Encodable {
        struct Failed: Encodable { var id: Int64; var kind: String; var httpStatus: Int?; var error: String }
        var catalogue: String?
        var catalogueMessage: String?
        var inserted: Int?, updated: Int?, unchanged: Int?
        var withdrawn: [String]?, reinstated: [String]?
        var etag: String?
        var delivered: [Int64]
        var failed: [Failed]
        var pending: Int
        var nextAttemptAt: Date?
        var unreachable: String?

        init(_ r: SyncReport) {
            switch r.catalogue {
            case .unchanged?: catalogue = "unchanged"
            case .updated(let c, let e)?:
                catalogue = "updated"
                inserted = c.importReport.inserted; updated = c.importReport.updated; unchanged = c.importReport.unchanged
                withdrawn = c.withdrawn; reinstated = c.reinstated; etag = e
            case .failed(let m)?: catalogue = "failed"; catalogueMessage = m
            case nil: break
            }
            delivered = r.delivered.map(\.id)
            failed = r.failed.map { Failed(id: $0.id, kind: $0.kind, httpStatus: $0.httpStatus, error: $0.lastError ?? "") }
            pending = r.pending
            nextAttemptAt = r.pending > 0 ? r.nextAttempt : nil
            unreachable = r.unreachable
        }
    }
}

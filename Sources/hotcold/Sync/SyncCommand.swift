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
            Example: hotcold sync --api https://bigthings.example/api
            """)

    @OptionGroup var options: StoreOptions
    @OptionGroup var apiOptions: APIOptions

    func run() async throws {
        do {
            let client = try apiOptions.client()
            let store = try Store.open(path: options.databasePath)
            let syncer = Syncer(store: store, client: client,
                                options: .init(maxWait: apiOptions.maxWait, honourBackoff: false))
            let report = await syncer.sync()
            print(report.summary)
            if let problem = report.unreachable { throw CLIError(problem) }
        } catch let e as CLIError {
            Output.note("hotcold sync: \(e.description)")
            throw ExitCode(e.code)
        } catch let e as ConfigError {
            Output.note("hotcold sync: \(e.description)")
            throw ExitCode(78)
        }
    }
}

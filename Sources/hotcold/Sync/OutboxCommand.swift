import ArgumentParser
import Foundation
import HotColdCore
import HotColdStore

struct OutboxCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "outbox",
        abstract: "What waits to go to the Big Things web API, what went, and what the server refused.",
        discussion: "Example: hotcold outbox --json")

    @OptionGroup var options: StoreOptions

    func run() throws {
        let items = try options.backend().outbox()
        if options.json { return try Output.json(items) }
        if items.isEmpty { return print("The outbox is empty.") }
        var rows: [[String]] = []
        for i in items {
            let what = i.kind == "rating" ? (i.placeId ?? "") : (i.name ?? "")
            var detail: String
            switch i.state {
            case "pending":
                detail = "attempts \(i.attempts)"
                if let e = i.lastError { detail += "; last error: \(e)" }
            case "delivered":
                detail = "HTTP \(i.httpStatus.map(String.init) ?? "?") \(i.response ?? "")"
            default:
                detail = "HTTP \(i.httpStatus.map(String.init) ?? "?"): \(i.lastError ?? "")"
            }
            rows.append(["#\(i.id)", i.kind, what, i.state, detail])
        }
        Output.table(rows)
        let counts = Dictionary(grouping: items, by: \.state).mapValues(\.count)
        print("\(counts["pending"] ?? 0) pending, \(counts["delivered"] ?? 0) delivered, \(counts["failed"] ?? 0) failed.")
    }
}

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

    /// One item as listed: the request body without the photo's bytes.
    struct Entry: Encodable {
        var id: Int64
        var kind: String
        var state: String
        var idempotencyKey: String
        var placeId: String?
        var submissionId: Int64?
        var attempts: Int
        var createdAt: Date
        var lastAttemptAt: Date?
        var nextAttemptAt: Date?
        var lastError: String?
        var httpStatus: Int?
        var request: String
        var response: String?
    }

    static func entry(_ i: OutboxItem) -> Entry {
        Entry(id: i.id ?? 0, kind: i.kind.rawValue, state: i.state.rawValue, idempotencyKey: i.idempotencyKey,
              placeId: i.placeId, submissionId: i.submissionId, attempts: i.attempts, createdAt: i.createdAt,
              lastAttemptAt: i.lastAttemptAt,
              nextAttemptAt: i.state == .pending ? max(i.nextAttemptAt, i.notBefore ?? .distantPast) : nil,
              lastError: i.lastError, httpStatus: i.httpStatus, request: brief(i.payload), response: i.responseText)
    }

    /// The body with a photo's base64 replaced by its size.
    static func brief(_ payload: Data) -> String {
        guard var o = (try? JSONSerialization.jsonObject(with: payload)) as? [String: Any] else {
            return String(decoding: payload, as: UTF8.self)
        }
        if var photo = o["photo"] as? [String: Any], let b64 = photo["data_base64"] as? String {
            photo["data_base64"] = "(\(Data(base64Encoded: b64)?.count ?? 0) bytes)"
            o["photo"] = photo
        }
        let data = (try? JSONSerialization.data(withJSONObject: o, options: [.sortedKeys, .withoutEscapingSlashes])) ?? payload
        return String(decoding: data, as: UTF8.self)
    }

    func run() throws {
        let store = try Store.open(path: options.databasePath)
        let items = try store.outbox()
        if options.json { return try Output.json(items.map(Self.entry)) }
        if items.isEmpty { return print("The outbox is empty.") }
        var rows: [[String]] = []
        for i in items {
            let what = i.kind == .rating ? (i.placeId ?? "") : Self.submissionName(i.payload)
            var detail: String
            switch i.state {
            case .pending:
                detail = "attempts \(i.attempts)"
                if let e = i.lastError { detail += "; last error: \(e)" }
            case .delivered:
                detail = "HTTP \(i.httpStatus.map(String.init) ?? "?") \(i.responseText ?? "")"
            case .failed:
                detail = "HTTP \(i.httpStatus.map(String.init) ?? "?"): \(i.lastError ?? "")"
            }
            rows.append(["#\(i.id ?? 0)", i.kind.rawValue, what, i.state.rawValue, detail])
        }
        Output.table(rows)
        let counts = Dictionary(grouping: items, by: \.state).mapValues(\.count)
        print("\(counts[.pending] ?? 0) pending, \(counts[.delivered] ?? 0) delivered, \(counts[.failed] ?? 0) failed.")
    }

    static func submissionName(_ payload: Data) -> String {
        ((try? JSONSerialization.jsonObject(with: payload)) as? [String: Any])?["name"] as? String ?? ""
    }
}

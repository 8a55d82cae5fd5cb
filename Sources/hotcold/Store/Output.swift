import Foundation
import HotColdCore
import HotColdStore

/// Printing for the store commands: data to stdout, messages to stderr.
enum Output {
    static func note(_ message: String) {
        FileHandle.standardError.write(Data((Shown.text(message) + "\n").utf8))
    }

    /// JSON with snake_case keys and ISO-8601 times, as the socket and log speak.
    static func json(_ value: some Encodable) throws {
        let enc = JSONEncoder()
        enc.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        enc.keyEncodingStrategy = .convertToSnakeCase
        enc.dateEncodingStrategy = .custom { date, encoder in
            var c = encoder.singleValueContainer()
            try c.encode(ISO8601.format(date))
        }
        printJSON(String(decoding: try enc.encode(value), as: UTF8.self))
    }

    /// A change's outcome: `value` as JSON when `--json` asked for it, else the sentence.
    static func result(json: Bool, _ value: some Encodable, text: @autoclosure () -> String) throws {
        if json { try Output.json(value) } else { print(text()) }
    }

    /// What `--json` prints for a change that returns no record of its own.
    struct Change: Encodable {
        var id: String
        var favourite: Bool?
        var visitsRemoved: Int?
        var noteRemoved: Bool?
    }

    static func mediumDate(_ date: Date) -> String {
        let f = DateFormatter()
        f.dateStyle = .medium
        f.timeStyle = .short
        return f.string(from: date)
    }

    /// Columns padded to the widest cell (by characters), last column free.
    static func table(_ rows: [[String]]) {
        guard let n = rows.map(\.count).max() else { return }
        var widths = Array(repeating: 0, count: n)
        for r in rows { for (i, c) in r.enumerated() where i < n - 1 { widths[i] = max(widths[i], c.count) } }
        for r in rows {
            var line = ""
            for (i, c) in r.enumerated() {
                line += i < n - 1 ? c.padding(toLength: widths[i] + 2, withPad: " ", startingAt: 0) : c
            }
            print(line.trimmingCharacters(in: .whitespaces))
        }
    }

    /// The catalogue's community average, e.g. "4.2 (37 votes)"; blank when unrated.
    static func catalogueRating(_ rating: Double?, votes: Int?) -> String {
        guard let rating, rating.isFinite else { return "" }
        let avg = (rating * 10).rounded() / 10
        guard let votes else { return "\(avg)" }
        return "\(avg) (\(votes) vote\(votes == 1 ? "" : "s"))"
    }

    static func stars(_ n: Int?) -> String {
        guard let n else { return "" }
        return String(repeating: "★", count: n) + String(repeating: "☆", count: 5 - n)
    }

    /// Strips HTML tags and squeezes whitespace, for cache descriptions in a terminal.
    static func plain(_ html: String) -> String {
        var out = "", inTag = false
        for ch in html {
            if ch == "<" { inTag = true; continue }
            if ch == ">" { inTag = false; out.append(" "); continue }
            if !inTag { out.append(ch) }
        }
        out = out.replacingOccurrences(of: "&nbsp;", with: " ").replacingOccurrences(of: "&amp;", with: "&")
        return out.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}

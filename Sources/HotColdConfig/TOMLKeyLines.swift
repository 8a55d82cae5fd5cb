/// Finds the line where each `table.key` is written, so errors can point at it.
///
/// TOMLKit reports positions only for syntax errors; keys are found by a light scan of the
/// text that follows table headers and `key = value` lines (enough for a configuration file,
/// which has no need for dotted keys or inline tables).
struct TOMLKeyLines {
    private var lines: [String: Int] = [:]

    public init(text: String) {
        var table = ""
        for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingBlanks()
            if line.hasPrefix("[") && !line.hasPrefix("[[") {
                if let end = line.firstIndex(of: "]") {
                    table = String(line[line.index(after: line.startIndex)..<end].trimmingBlanks())
                    if lines[table] == nil { lines[table] = n + 1 }
                }
            } else if let eq = line.firstIndex(of: "="), !line.hasPrefix("#") {
                var key = String(line[..<eq].trimmingBlanks())
                if key.hasPrefix("\""), key.hasSuffix("\""), key.count >= 2 { key = String(key.dropFirst().dropLast()) }
                let full = table.isEmpty ? key : "\(table).\(key)"
                if lines[full] == nil { lines[full] = n + 1 }
            }
        }
    }

    public func line(of key: String) -> Int? { lines[key] }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

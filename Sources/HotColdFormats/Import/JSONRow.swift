import HotColdProtocol
import Foundation
import HotColdCore

/// One object of an imported JSON list, with typed, forgiving accessors whose failures become
/// ``ImportIssue``s naming the row and field.
package struct JSONRow {
    package let fields: [String: JSONValue]
    package let row: Int
    package var id: String?
    package var name: String?

    package init(_ fields: [String: JSONValue], row: Int) {
        self.fields = fields
        self.row = row
        self.id = JSONRow.idText(fields["id"])
        self.name = fields["name"]?.string.map(JSONRow.clean)
    }

    package func issue(_ field: String?, _ message: String) -> ImportIssue {
        ImportIssue(row: row, id: id, name: name, field: field, message: message)
    }

    package static func clean(_ s: String) -> String { s.trimmingCharacters(in: .whitespacesAndNewlines) }

    /// Ids may be strings or integers (`"halans:0d23000d3d"`, `42`).
    package static func idText(_ v: JSONValue?) -> String? {
        switch v {
        case .string(let s): let t = clean(s); return t.isEmpty ? nil : t
        case .number(let n) where n == n.rounded() && abs(n) < 1e15: return String(Int64(n))
        default: return nil
        }
    }

    /// A present, non-empty string; nil for absent/null/empty; an issue for other types.
    package func text(_ key: String) throws(ImportIssue) -> String? {
        switch fields[key] {
        case nil, .null?: return nil
        case .string(let s)?: let t = JSONRow.clean(s); return t.isEmpty ? nil : t
        case .number?, .bool?: return fields[key]!.brief
        case let v?: throw issue(key, "expected text, found \(v.brief)")
        }
    }

    package func requiredText(_ key: String) throws(ImportIssue) -> String {
        guard let t = try text(key) else { throw issue(key, "missing") }
        return t
    }

    /// A number, or a string holding one (GPX/GeoJSON round trips carry numbers as text).
    package func number(_ key: String) throws(ImportIssue) -> Double? {
        switch fields[key] {
        case nil, .null?: return nil
        case .number(let n)?: return n
        case .string(let s)?:
            let t = JSONRow.clean(s)
            if t.isEmpty { return nil }
            guard let n = Double(t), n.isFinite else { throw issue(key, "expected a number, found \"\(t)\"") }
            return n
        case let v?: throw issue(key, "expected a number, found \(v.brief)")
        }
    }

    /// A number that must lie in `range` (a rating 0–5, a latitude), or an issue naming the field.
    package func number(_ key: String, in range: ClosedRange<Double>) throws(ImportIssue) -> Double? {
        guard let n = try number(key) else { return nil }
        guard range.contains(n) else {
            throw issue(key, "\(n) is out of range (\(JSONLine.number(range.lowerBound, decimals: 3))…\(JSONLine.number(range.upperBound, decimals: 3)))")
        }
        return n
    }

    /// A whole number that must lie in `range` (a vote count ≥ 0), or an issue naming the field.
    package func integer(_ key: String, in range: ClosedRange<Int>) throws(ImportIssue) -> Int? {
        guard let i = try integer(key) else { return nil }
        guard range.contains(i) else { throw issue(key, "\(i) is out of range (\(range.lowerBound)…\(range.upperBound))") }
        return i
    }

    package func integer(_ key: String) throws(ImportIssue) -> Int? {
        guard let n = try number(key) else { return nil }
        guard n == n.rounded(), abs(n) < 1e15 else { throw issue(key, "expected a whole number, found \(n)") }
        return Int(n)
    }

    package func bool(_ key: String) throws(ImportIssue) -> Bool? {
        switch fields[key] {
        case nil, .null?: return nil
        case .bool(let b)?: return b
        case .string(let s)?:
            switch s.lowercased() {
            case "true", "yes", "1": return true
            case "false", "no", "0": return false
            default: throw issue(key, "expected true or false, found \"\(s)\"")
            }
        case let v?: throw issue(key, "expected true or false, found \(v.brief)")
        }
    }

    /// Tags as an array of strings or one comma-separated string.
    package func tags(_ key: String) throws(ImportIssue) -> [String] {
        switch fields[key] {
        case nil, .null?: return []
        case .string(let s)?:
            return s.split(separator: ",").map { JSONRow.clean(String($0)) }.filter { !$0.isEmpty }
        case .array(let a)?:
            var out: [String] = []
            for v in a {
                guard let s = v.string else { throw issue(key, "expected a list of text, found \(v.brief) in it") }
                let t = JSONRow.clean(s)
                if !t.isEmpty { out.append(t) }
            }
            return out
        case let v?: throw issue(key, "expected a list of tags, found \(v.brief)")
        }
    }

    /// A latitude/longitude pair from the given keys, checked for range.
    package func coordinate(lat latKey: String, lon lonKey: String) throws(ImportIssue) -> (Double, Double) {
        guard let lat = try number(latKey) else { throw issue(latKey, "missing") }
        guard let lon = try number(lonKey) else { throw issue(lonKey, "missing") }
        guard abs(lat) <= 90 else { throw issue(latKey, "latitude \(lat) is out of range (-90…90)") }
        guard abs(lon) <= 180 else { throw issue(lonKey, "longitude \(lon) is out of range (-180…180)") }
        return (lat, lon)
    }
}

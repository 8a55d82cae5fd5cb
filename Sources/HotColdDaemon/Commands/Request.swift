import Foundation
import HotColdCore

/// One parsed command line: a JSON object with a `"cmd"` string and named arguments.
///
/// Decoded into typed values (not `JSONSerialization`'s `Any`, where `true` and `1` are both
/// `NSNumber`), so "a boolean" and "a number" mean what they say.
struct Request: Sendable {
    let cmd: String
    let fields: [String: Value]

    /// A JSON value.
    enum Value: Decodable, Sendable {
        case string(String), number(Double), bool(Bool), array([Value]), object([String: Value]), null

        init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            if c.decodeNil() { self = .null }
            else if let b = try? c.decode(Bool.self) { self = .bool(b) }
            else if let n = try? c.decode(Double.self) { self = .number(n) }
            else if let s = try? c.decode(String.self) { self = .string(s) }
            else if let a = try? c.decode([Value].self) { self = .array(a) }
            else { self = .object(try c.decode([String: Value].self)) }
        }
    }

    struct Problem: Error { var message: String }

    static func parse(_ line: String) -> Result<Request, Problem> {
        let value: Value
        do {
            value = try JSONDecoder().decode(Value.self, from: Data(line.utf8))
        } catch {
            let preview = line.count > 40 ? String(line.prefix(40)) + "…" : line
            return .failure(Problem(message: "not JSON: \(preview) (send one object per line, e.g. {\"cmd\":\"status\"})"))
        }
        guard case .object(let dict) = value else {
            return .failure(Problem(message: "expected a JSON object with a \"cmd\" field"))
        }
        guard case .string(let cmd)? = dict["cmd"] else {
            return .failure(Problem(message: "missing \"cmd\": expected e.g. {\"cmd\":\"watch\"}"))
        }
        return .success(Request(cmd: cmd.lowercased(), fields: dict))
    }

    func has(_ key: String) -> Bool { fields[key] != nil }

    func bool(_ key: String) throws(Problem) -> Bool? {
        switch fields[key] {
        case nil: return nil
        case .bool(let b)?: return b
        default: throw Problem(message: "\(cmd): \"\(key)\" must be true or false")
        }
    }

    func string(_ key: String) throws(Problem) -> String? {
        switch fields[key] {
        case nil: return nil
        case .string(let s)?: return s
        default: throw Problem(message: "\(cmd): \"\(key)\" must be a string")
        }
    }

    func number(_ key: String) throws(Problem) -> Double? {
        switch fields[key] {
        case nil: return nil
        case .number(let n)?: return n
        default: throw Problem(message: "\(cmd): \"\(key)\" must be a number")
        }
    }

    func strings(_ key: String) throws(Problem) -> [String]? {
        var out: [String] = []
        switch fields[key] {
        case nil: return nil
        case .string(let s)?: return [s]
        case .array(let items)?:
            for case .string(let s) in items { out.append(s) }
            if out.count == items.count { return out }
        default: break
        }
        throw Problem(message: "\(cmd): \"\(key)\" must be an array of strings")
    }

    /// A distance given as metres (number) or text with a unit ("10km").
    func distance(_ key: String) throws(Problem) -> Double? {
        switch fields[key] {
        case nil: return nil
        case .string(let s)?: if let m = DistanceParser.metres(s) { return m }
        case .number(let n)?: if n.isFinite, n >= 0 { return n }
        default: break
        }
        throw Problem(message: "\(cmd): \"\(key)\" must be a distance such as 10000 or \"10km\"")
    }
}

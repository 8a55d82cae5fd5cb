import Foundation
import HotColdCore

/// One parsed command line: a JSON object with a `"cmd"` string and named arguments.
struct Request: @unchecked Sendable {
    let cmd: String
    let fields: [String: Any]

    struct Problem: Error { var message: String }

    static func parse(_ line: String) -> Result<Request, Problem> {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: Data(line.utf8), options: [.fragmentsAllowed])
        } catch {
            let preview = line.count > 40 ? String(line.prefix(40)) + "…" : line
            return .failure(Problem(message: "not JSON: \(preview) (send one object per line, e.g. {\"cmd\":\"status\"})"))
        }
        guard let dict = object as? [String: Any] else {
            return .failure(Problem(message: "expected a JSON object with a \"cmd\" field"))
        }
        guard let cmd = dict["cmd"] as? String else {
            return .failure(Problem(message: "missing \"cmd\": expected e.g. {\"cmd\":\"watch\"}"))
        }
        return .success(Request(cmd: cmd.lowercased(), fields: dict))
    }

    func bool(_ key: String) throws(Problem) -> Bool? {
        guard let v = fields[key] else { return nil }
        // JSONSerialization gives NSNumber for both numbers and booleans: insist on a real bool.
        guard let n = v as? NSNumber, CFGetTypeIDIsBool(n) else {
            throw Problem(message: "\(cmd): \"\(key)\" must be true or false")
        }
        return n.boolValue
    }

    func strings(_ key: String) throws(Problem) -> [String]? {
        guard let v = fields[key] else { return nil }
        if let s = v as? String { return [s] }
        guard let a = v as? [Any], let s = a as? [String] else {
            throw Problem(message: "\(cmd): \"\(key)\" must be an array of strings")
        }
        return s
    }

    /// A distance given as metres (number) or text with a unit ("10km").
    func distance(_ key: String) throws(Problem) -> Double? {
        guard let v = fields[key] else { return nil }
        if let s = v as? String, let m = DistanceParser.metres(s) { return m }
        if let n = v as? NSNumber, !CFGetTypeIDIsBool(n), n.doubleValue.isFinite, n.doubleValue >= 0 {
            return n.doubleValue
        }
        throw Problem(message: "\(cmd): \"\(key)\" must be a distance such as 10000 or \"10km\"")
    }
}

/// Whether an NSNumber from JSONSerialization was a JSON `true`/`false`.
private func CFGetTypeIDIsBool(_ n: NSNumber) -> Bool {
    String(cString: n.objCType) == "c" && (n === NSNumber(value: true) || n === NSNumber(value: false) || n.boolValue == (n.intValue != 0))
        && type(of: n) != NSNumber.self || String(describing: type(of: n)).contains("Bool")
}

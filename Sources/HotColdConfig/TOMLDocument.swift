#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import TOMLKit

/// A TOML configuration file read and checked the same way for every hotcold program: the
/// text parsed (a bad header or bad TOML is an error with its line), every section and key
/// known (an unknown one is an error naming it, its line, and what is known), and each key's
/// line kept for the errors that come later.
///
/// TOMLKit 0.6.0 never frees what it parses (its table has no deinit, and `keys` and parse errors
/// are malloc'd and kept), so each load leaks about the document's size. Loads are rare (start,
/// SIGHUP), so this costs a few kilobytes a year; the config fuzz target allows for it.
///
/// ```swift
/// let doc = try TOMLDocument(path: "hotcold-mqtt.toml", known: ["broker": ["host", "port"]])
/// let port = try doc.integer("broker.port", in: 1...65535)     // nil when absent
/// ```
public struct TOMLDocument {
    public let root: TOMLTable
    public let file: String
    let lines: TOMLKeyLines

    /// Reads and checks the file at `path`.
    public init(path: String, known: [String: Set<String>]) throws(ConfigError) {
        let text: String
        // The usual mistakes in our own words, before Foundation's ("The operation could not
        // be completed", "NSCocoaErrorDomain error 256") can answer for them.
        var st = stat()
        if stat(path, &st) != 0 {
            let reason = errno == ENOENT ? "no such file" : String(cString: strerror(errno))
            throw ConfigError(file: path, line: nil, key: nil, message: "cannot read the file: \(reason)")
        }
        if (st.st_mode & S_IFMT) == S_IFDIR {
            throw ConfigError(file: path, line: nil, key: nil, message: "cannot read the file: it is a directory")
        }
        if access(path, R_OK) != 0 {
            throw ConfigError(file: path, line: nil, key: nil, message: "cannot read the file: not readable by this user")
        }
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ConfigError(file: path, line: nil, key: nil, message: "cannot read the file: \(ConfigLoader.reason(error))")
        }
        try self.init(text: text, file: path, known: known)
    }

    /// Parses and checks `text` (named `file` in errors).
    public init(text: String, file: String, known: [String: Set<String>]) throws(ConfigError) {
        if let problem = TOMLPreflight.firstProblem(in: text) {
            throw ConfigError(file: file, line: problem.line, key: nil, message: "not valid TOML: \(problem.message)")
        }
        do {
            root = try TOMLTable(string: text)
        } catch let e as TOMLParseError {
            throw ConfigError(file: file, line: e.source.begin.line, key: nil,
                              message: "not valid TOML (column \(e.source.begin.column)): \(e.description)")
        } catch {
            throw ConfigError(file: file, line: nil, key: nil, message: "not valid TOML: \(error)")
        }
        self.file = file
        lines = TOMLKeyLines(text: text)
        for key in root.keys {
            guard let allowed = known[key] else {
                throw fail(key, "unknown section or key (known sections: \(known.keys.sorted().joined(separator: ", ")))")
            }
            guard let table = root[key]?.table else { throw fail(key, "expected a [\(key)] table") }
            for sub in table.keys where !allowed.contains(sub) {
                throw fail("\(key).\(sub)", "unknown key (known in [\(key)]: \(allowed.sorted().joined(separator: ", ")))")
            }
        }
    }

    /// An error about `key` ("section.key"), at its line.
    public func fail(_ key: String, _ message: String) -> ConfigError {
        ConfigError(file: file, line: lines.line(of: key), key: key, message: message)
    }

    /// The value at "section.key", if the file gives one.
    public func value(_ key: String) -> (any TOMLValueConvertible)? {
        let parts = key.split(separator: ".", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { return root[key] }
        return root[parts[0]]?.table?[parts[1]]
    }

    /// A string of at most `maxBytes` bytes.
    public func string(_ key: String, maxBytes: Int = 4096) throws(ConfigError) -> String? {
        guard let v = value(key) else { return nil }
        guard let s = v.string else { throw fail(key, "expected a string, got \(v.type)") }
        guard s.utf8.count <= maxBytes else { throw fail(key, "longer than \(maxBytes) bytes") }
        return s
    }

    public func bool(_ key: String) throws(ConfigError) -> Bool? {
        guard let v = value(key) else { return nil }
        guard let b = v.bool else { throw fail(key, "expected true or false, got \(v.type)") }
        return b
    }

    /// A whole number within `range`.
    public func integer(_ key: String, in range: ClosedRange<Int>) throws(ConfigError) -> Int? {
        guard let v = value(key) else { return nil }
        guard let i = v.int else { throw fail(key, "expected an integer, got \(v.type)") }
        guard range.contains(i) else {
            throw fail(key, "expected a whole number from \(range.lowerBound) to \(range.upperBound), got \(i)")
        }
        return i
    }

    /// A finite number within `range` (TOML allows `inf` and `nan`, which no setting means).
    public func number(_ key: String, in range: ClosedRange<Double>) throws(ConfigError) -> Double? {
        guard let v = value(key) else { return nil }
        let d: Double
        if let x = v.double { d = x } else if let i = v.int { d = Double(i) } else {
            throw fail(key, "expected a number, got \(v.type)")
        }
        guard d.isFinite else { throw fail(key, "expected a finite number, got \(d)") }
        guard range.contains(d) else { throw fail(key, "expected \(range.lowerBound) to \(range.upperBound), got \(d)") }
        return d
    }
}

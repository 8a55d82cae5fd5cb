#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import HotColdCore

/// Builds one JSON object as a single line, keys in the order they are added.
///
/// The wire wants `"class"` first and stable field order so that replays are byte-identical;
/// Foundation's encoders promise neither, and events are simple enough to write directly.
///
/// ```swift
/// var o = JSONLine(class: "ERROR")
/// o.add("message", "unknown command")
/// print(o.text)   // {"class":"ERROR","message":"unknown command"}
/// ```
public struct JSONLine: Sendable {
    private var out: String
    private var first = true

    init(class name: String) {
        out = ""
        out.reserveCapacity(192)
        out.append("{")
        add("class", name)
    }

    /// An object without a `class` (for nested values).
    public static func object() -> JSONLine { JSONLine() }

    private init() {
        out = "{"
    }

    /// The finished object without a trailing newline.
    public var text: String { out + "}" }

    private mutating func key(_ k: String) {
        if !first { out.append(",") }
        first = false
        JSONLine.appendQuoted(k, to: &out)
        out.append(":")
    }

    public mutating func add(_ k: String, _ v: String) {
        key(k)
        JSONLine.appendQuoted(v, to: &out)
    }

    public mutating func add(_ k: String, _ v: Int) {
        key(k)
        out.append(String(v))
    }

    mutating func add(_ k: String, _ v: Bool) {
        key(k)
        out.append(v ? "true" : "false")
    }

    /// A number rounded to `decimals` places; non-finite values are written as `null`.
    public mutating func add(_ k: String, _ v: Double, decimals: Int = 3) {
        key(k)
        out.append(JSONLine.number(v, decimals: decimals))
    }

    /// Adds the key only when the value is known.
    mutating func addIfPresent(_ k: String, _ v: Double?, decimals: Int = 3) {
        if let v { add(k, v, decimals: decimals) }
    }

    mutating func add(_ k: String, time: Date) {
        add(k, ISO8601.format(time))
    }

    /// Adds an already-serialised JSON value (an object or array built elsewhere).
    mutating func addRaw(_ k: String, json: String) {
        key(k)
        out.append(json)
    }

    /// Shortest decimal text of `v` rounded to `decimals` places (`12.5`, not `12.500`).
    public static func number(_ v: Double, decimals: Int) -> String {
        guard v.isFinite else { return "null" }
        let scale = pow(10.0, Double(decimals))
        var r = (v * scale).rounded() / scale
        // Near the top of the double range the scaling overflows; such a value has no decimals.
        if !r.isFinite { r = v }
        if r == r.rounded(), abs(r) < 1e15 {
            return String(Int64(r))
        }
        // Swift prints the shortest text that round-trips, so 123.4 stays "123.4".
        return r == 0 ? "0" : "\(r)"
    }

    static func appendQuoted(_ s: String, to out: inout String) {
        out.append("\"")
        var plain = true
        for u in s.utf8 where u < 0x20 || u == 0x22 || u == 0x5C { plain = false; break }
        if plain {
            out.append(s)
        } else {
            for scalar in s.unicodeScalars {
                switch scalar {
                case "\"": out.append("\\\"")
                case "\\": out.append("\\\\")
                case "\n": out.append("\\n")
                case "\r": out.append("\\r")
                case "\t": out.append("\\t")
                case _ where scalar.value < 0x20:
                    out.append("\\u00")
                    let hex = String(scalar.value, radix: 16)
                    if hex.count < 2 { out.append("0") }
                    out.append(hex)
                default: out.unicodeScalars.append(scalar)
                }
            }
        }
        out.append("\"")
    }

    static func quoted(_ s: String) -> String {
        var o = ""
        appendQuoted(s, to: &o)
        return o
    }
}

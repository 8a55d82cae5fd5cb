#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HotColdCore

/// Reads one request's fields, each checked once, here: type, range, size. Every failure is a
/// `ProtocolError` naming the command and the field.
///
/// Unknown fields are refused (`bad_field`), so a misspelt option never passes silently and a
/// client meant for a newer daemon learns at once what this one lacks.
struct Fields {
    let command: String
    private let c: KeyedDecodingContainer<AnyKey>

    init(_ decoder: any Decoder, command: String, allowed: Set<String>) throws(ProtocolError) {
        self.command = command
        do {
            c = try decoder.container(keyedBy: AnyKey.self)
        } catch {
            throw ProtocolError(.badJSON, command: command, "expected a JSON object")
        }
        let known = allowed.union(["cmd"])
        if let bad = c.allKeys.map(\.stringValue).filter({ !known.contains($0) }).sorted().first {
            let list = allowed.sorted().joined(separator: ", ")
            throw ProtocolError(.badField, command: command, field: bad,
                                "unknown field" + (list.isEmpty ? " (this command takes none)" : " (known: \(list))"))
        }
    }

    func has(_ key: String) -> Bool { c.contains(AnyKey(key)) }

    private func fail(_ code: ErrorCode, _ key: String, _ detail: String) -> ProtocolError {
        ProtocolError(code, command: command, field: key, detail)
    }

    /// A present, non-null value decoded as `T`, or nil when absent.
    private func value<T: Decodable>(_ type: T.Type, _ key: String, _ expected: String) throws(ProtocolError) -> T? {
        let k = AnyKey(key)
        guard c.contains(k) else { return nil }
        if (try? c.decodeNil(forKey: k)) == true { throw fail(.badField, key, "must be \(expected), not null") }
        do { return try c.decode(T.self, forKey: k) } catch { throw fail(.badField, key, "must be \(expected)") }
    }

    func required<T>(_ v: T?, _ key: String, _ what: String) throws(ProtocolError) -> T {
        guard let v else { throw fail(.badField, key, "missing (\(what))") }
        return v
    }

    func bool(_ key: String) throws(ProtocolError) -> Bool? { try value(Bool.self, key, "true or false") }

    /// A string of at most `max` characters; empty ones refused unless `allowEmpty`.
    func string(_ key: String, max: Int, allowEmpty: Bool = false) throws(ProtocolError) -> String? {
        guard let s = try value(String.self, key, "a string") else { return nil }
        if !Limits.fits(s, max: max) { throw fail(.tooLarge, key, Self.tooLong(s, max)) }
        if !allowEmpty && s.isEmpty { throw fail(.badField, key, "must not be empty") }
        return s
    }

    /// The refusal of a text over `max`, in the units it was counted in (``Limits/length(of:)``).
    static func tooLong(_ s: String, _ max: Int) -> String {
        let n = Limits.length(of: s)
        return "at most \(max) characters, got \(n)" + (n == s.count ? "" : " (counted as Unicode code points: \(s.count) as shown, some drawn from several, such as emoji)")
    }

    func requiredString(_ key: String, max: Int, what: String) throws(ProtocolError) -> String {
        try required(try string(key, max: max), key, what)
    }

    /// A finite JSON number in `range`.
    func number(_ key: String, in range: ClosedRange<Double>) throws(ProtocolError) -> Double? {
        guard let n = try value(Double.self, key, "a number") else { return nil }
        guard n.isFinite, range.contains(n) else {
            throw fail(.outOfRange, key, "must be in \(Self.text(range.lowerBound))…\(Self.text(range.upperBound)), got \(n)")
        }
        return n
    }

    /// A whole JSON number in `range` (`4.0` counts; `4.5`, `1e19` and `"4"` do not).
    func integer(_ key: String, in range: ClosedRange<Int>) throws(ProtocolError) -> Int? {
        guard let n = try value(Double.self, key, "a whole number") else { return nil }
        guard n.isFinite, n == n.rounded(), let i = Int(exactly: n), range.contains(i) else {
            throw fail(.outOfRange, key, "must be a whole number in \(range.lowerBound)…\(range.upperBound), got \(n)")
        }
        return i
    }

    func latitude(_ key: String = "lat") throws(ProtocolError) -> Double? { try number(key, in: -90...90) }
    func longitude(_ key: String = "lon") throws(ProtocolError) -> Double? { try number(key, in: -180...180) }

    /// `lat` and `lon` together, or neither.
    func coordinate() throws(ProtocolError) -> Coordinate? {
        let lat = try latitude(), lon = try longitude()
        switch (lat, lon) {
        case (nil, nil): return nil
        case let (la?, lo?): return Coordinate(latitude: la, longitude: lo)
        case (nil, _): throw fail(.badField, "lat", "missing (give lat and lon together)")
        case (_, nil): throw fail(.badField, "lon", "missing (give lat and lon together)")
        }
    }

    /// A list of strings (a single string counts as a list of one), each non-empty.
    func strings(_ key: String, maxCount: Int, maxLength: Int) throws(ProtocolError) -> [String]? {
        let k = AnyKey(key)
        guard c.contains(k) else { return nil }
        var list: [String]
        if let one = try? c.decode(String.self, forKey: k) {
            list = [one]
        } else if let many = try? c.decode([String].self, forKey: k) {
            list = many
        } else {
            throw fail(.badField, key, "must be an array of strings")
        }
        if list.count > maxCount { throw fail(.tooLarge, key, "at most \(maxCount) items, got \(list.count)") }
        for (i, s) in list.enumerated() {
            if s.isEmpty { throw fail(.badField, "\(key)[\(i)]", "must not be empty") }
            if !Limits.fits(s, max: maxLength) { throw fail(.tooLarge, "\(key)[\(i)]", Self.tooLong(s, maxLength)) }
        }
        return list
    }

    /// One of `allowed` (compared lowercased).
    func choice(_ key: String, _ allowed: [String]) throws(ProtocolError) -> String? {
        guard let s = try string(key, max: 32) else { return nil }
        let l = s.lowercased()
        guard allowed.contains(l) else { throw fail(.badField, key, "\"\(s)\" is not one of \(allowed.joined(separator: ", "))") }
        return l
    }

    /// A distance in metres: a number of metres, or text with a unit ("10km", "850m"), in
    /// (0, `max`] after the unit is applied.
    func distance(_ key: String, max: Double) throws(ProtocolError) -> Double? {
        let k = AnyKey(key)
        guard c.contains(k) else { return nil }
        let metres: Double
        if let n = try? c.decode(Double.self, forKey: k) {
            metres = n
        } else if let s = try? c.decode(String.self, forKey: k) {
            guard s.count <= 32, let m = DistanceParser.metres(s) else {
                // A number with a unit that is negative is out of range, not malformed.
                let digits = String(s.reversed().drop(while: { $0.isLetter || $0 == " " }).reversed())
                if s.count <= 32, let n = Double(digits), n <= 0 {
                    throw fail(.outOfRange, key, "must be more than 0 and at most \(Self.text(max / 1000)) km, got \(s)")
                }
                throw fail(.badField, key, "must be a distance such as 10000 or \"10km\"")
            }
            metres = m
        } else {
            throw fail(.badField, key, "must be a distance such as 10000 or \"10km\"")
        }
        guard metres.isFinite, metres > 0, metres <= max else {
            throw fail(.outOfRange, key, "must be more than 0 and at most \(Self.text(max / 1000)) km, got \(metres) m")
        }
        return metres
    }

    /// An ISO-8601 time, to the millisecond the wire carries (finer digits are rounded once
    /// here, so a request re-encoded and decoded again is the same request: `scripts/fuzz`,
    /// target proto-request, found `"time":"2026-11-25T10:00:00.0002"` coming back as `.000`).
    func time(_ key: String) throws(ProtocolError) -> Date? {
        guard let s = try string(key, max: 40) else { return nil }
        guard let d = ISO8601.parse(s), let ms = ISO8601.parse(ISO8601.format(d)) else {
            throw fail(.badField, key, "must be an ISO-8601 time such as 2024-11-23T07:25:04Z")
        }
        return ms
    }

    /// A nested object, read by `body` with its own `Fields`.
    func object<T>(_ key: String, allowed: Set<String>, _ body: (Fields) throws(ProtocolError) -> T) throws(ProtocolError) -> T? {
        let k = AnyKey(key)
        guard c.contains(k) else { return nil }
        let nested: any Decoder
        do { nested = try c.superDecoder(forKey: k) } catch { throw fail(.badField, key, "must be an object") }
        return try body(try Fields(nested, command: "\(command) \(key)", allowed: allowed))
    }

    static func text(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e15 ? String(Int64(x)) : String(x)
    }
}

/// Any string as a coding key (the fields a request may have are checked by `Fields`).
struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ s: String) { stringValue = s }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// Writes a request's fields with literal keys (the mirror of `Fields`).
struct FieldWriter {
    var c: KeyedEncodingContainer<AnyKey>
    init(_ encoder: any Encoder, command: String) throws {
        c = encoder.container(keyedBy: AnyKey.self)
        try c.encode(command, forKey: AnyKey("cmd"))
    }
    mutating func put<T: Encodable>(_ key: String, _ v: T?) throws {
        if let v { try c.encode(v, forKey: AnyKey(key)) }
    }
}

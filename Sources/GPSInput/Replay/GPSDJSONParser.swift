import Foundation
import HotColdCore

/// Reads one gpsd JSON line (`gpspipe -w`) and makes a `Fix` of a `TPV` object.
///
/// A hand-written scanner for one flat JSON object rather than Foundation: measured with
/// `hotcold-bench` (release build, 2 shared cores, typical 24-field gpsd 3.22 TPV lines),
/// JSONSerialization managed about 72k lines/s and JSONDecoder about 130k, far from the 400k
/// target; `TrackReader` with this scanner does about 1.1M fixes/s end to end. It handles
/// whitespace anywhere, any key order, string escapes (skipped over, not decoded: the keys and
/// values we read never need them), nested objects and arrays (skipped), numbers with
/// exponents, true/false/null.
struct GPSDJSONParser {
    enum Outcome {
        case fix(Fix)
        /// Valid JSON, but not a TPV (VERSION, DEVICES, WATCH, SKY, …).
        case otherClass
        case noTime
        case invalid
    }

    private struct Fields {
        var isTPV = false
        var hasClass = false
        var time: UnsafeBufferPointer<UInt8>?
        var mode = 0
        var lat: Double?, lon: Double?
        var epx: Double?, epy: Double?, eph: Double?
        var speed: Double?, track: Double?
        var alt: Double?, altMSL: Double?, altHAE: Double?, geoidSep: Double?
    }

    /// The scan failed: the line is not one well-formed JSON object.
    private struct Invalid: Error {}

    func parse(_ line: UnsafeBufferPointer<UInt8>) -> Outcome {
        var fields = Fields()
        do {
            try scanObject(line, into: &fields)
        } catch {
            return .invalid
        }
        guard fields.isTPV else { return .otherClass }
        guard let timeBytes = fields.time else { return .noTime }
        guard let time = ISO8601.parse(String(decoding: timeBytes, as: UTF8.self)) else { return .invalid }
        let mode = Fix.Mode(rawValue: fields.mode) ?? .unknown
        var coordinate: Coordinate?
        // Below 2D a position is stale or absent: a fix without a fix carries none.
        if mode >= .twoD, let lat = fields.lat, let lon = fields.lon {
            coordinate = Coordinate(latitude: lat, longitude: lon)
            // Out-of-range degrees are damage, not a place.
            guard coordinate!.isValid else { return .invalid }
        }
        // gpsd ≥ 3.20 sends altMSL and altHAE; "alt" is the older (and deprecated) MSL figure.
        var altitude = fields.altMSL ?? fields.alt
        if altitude == nil, let hae = fields.altHAE, let sep = fields.geoidSep { altitude = hae - sep }
        return .fix(Fix(time: time, coordinate: coordinate, mode: mode,
                        epx: fields.epx, epy: fields.epy, eph: fields.eph,
                        speed: fields.speed, track: fields.track,
                        altitude: mode == .threeD ? altitude : nil))
    }

    private func scanObject(_ b: UnsafeBufferPointer<UInt8>, into f: inout Fields) throws(Invalid) {
        let n = b.count
        var i = skipSpace(b, 0)
        guard i < n, b[i] == 0x7B else { throw Invalid() }
        i = skipSpace(b, i + 1)
        guard i < n else { throw Invalid() }
        if b[i] == 0x7D {
            i += 1
        } else {
            while true {
                guard i < n, b[i] == 0x22 else { throw Invalid() }
                let keyEnd = try stringEnd(b, i + 1)
                let key = UnsafeBufferPointer(rebasing: b[(i + 1)..<keyEnd])
                i = skipSpace(b, keyEnd + 1)
                guard i < n, b[i] == 0x3A else { throw Invalid() }
                i = skipSpace(b, i + 1)
                guard i < n else { throw Invalid() }
                let valueStart = i
                let c = b[i]
                if c == 0x22 {
                    let end = try stringEnd(b, i + 1)
                    i = end + 1
                    let value = UnsafeBufferPointer(rebasing: b[(valueStart + 1)..<end])
                    if key.count == 5, Self.same(key, "class") {
                        f.hasClass = true
                        f.isTPV = value.count == 3 && Self.same(value, "TPV")
                    } else if key.count == 4, Self.same(key, "time") {
                        f.time = value
                    }
                } else if c == 0x7B || c == 0x5B {
                    i = try skipNested(b, i)
                } else if c == 0x74 || c == 0x66 || c == 0x6E {
                    let word: StaticString = c == 0x74 ? "true" : c == 0x66 ? "false" : "null"
                    let len = word.utf8CodeUnitCount
                    guard i + len <= n, Self.same(UnsafeBufferPointer(rebasing: b[i..<(i + len)]), word)
                    else { throw Invalid() }
                    i += len
                } else {
                    while i < n, Self.isNumberByte(b[i]) { i += 1 }
                    guard let v = DecimalBytes.double(UnsafeBufferPointer(rebasing: b[valueStart..<i]))
                    else { throw Invalid() }
                    assign(v, to: key, in: &f)
                }
                i = skipSpace(b, i)
                guard i < n else { throw Invalid() }
                if b[i] == 0x2C {
                    i = skipSpace(b, i + 1)
                    continue
                }
                guard b[i] == 0x7D else { throw Invalid() }
                i += 1
                break
            }
        }
        guard skipSpace(b, i) == n else { throw Invalid() }
    }

    private func assign(_ v: Double, to key: UnsafeBufferPointer<UInt8>, in f: inout Fields) {
        switch key.count {
        case 3:
            if Self.same(key, "lat") { f.lat = v }
            else if Self.same(key, "lon") { f.lon = v }
            else if Self.same(key, "alt") { f.alt = v }
            else if Self.same(key, "epx") { f.epx = v }
            else if Self.same(key, "epy") { f.epy = v }
            else if Self.same(key, "eph") { f.eph = v }
        case 4:
            if Self.same(key, "mode"), v >= 0, v <= 3 { f.mode = Int(v) }
        case 5:
            if Self.same(key, "speed") { f.speed = v }
            else if Self.same(key, "track") { f.track = v }
        case 6:
            if Self.same(key, "altMSL") { f.altMSL = v }
            else if Self.same(key, "altHAE") { f.altHAE = v }
        case 8:
            if Self.same(key, "geoidSep") { f.geoidSep = v }
        default:
            break
        }
    }

    @inline(__always)
    private func skipSpace(_ b: UnsafeBufferPointer<UInt8>, _ start: Int) -> Int {
        var i = start
        while i < b.count, b[i] == 0x20 || b[i] == 0x09 || b[i] == 0x0D || b[i] == 0x0A { i += 1 }
        return i
    }

    /// Index of the closing quote of a string whose content starts at `start`.
    private func stringEnd(_ b: UnsafeBufferPointer<UInt8>, _ start: Int) throws(Invalid) -> Int {
        var i = start
        while i < b.count {
            let c = b[i]
            if c == 0x22 { return i }
            if c == 0x5C { i += 2; continue }
            guard c >= 0x20 else { throw Invalid() }
            i += 1
        }
        throw Invalid()
    }

    /// Index just past the object or array starting at `start`, strings inside respected.
    private func skipNested(_ b: UnsafeBufferPointer<UInt8>, _ start: Int) throws(Invalid) -> Int {
        var depth = 0
        var i = start
        while i < b.count {
            switch b[i] {
            case 0x22: i = try stringEnd(b, i + 1)
            case 0x7B, 0x5B: depth += 1
            case 0x7D, 0x5D:
                depth -= 1
                if depth == 0 { return i + 1 }
            default: break
            }
            i += 1
        }
        throw Invalid()
    }

    @inline(__always)
    private static func isNumberByte(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || c == 0x2D || c == 0x2B || c == 0x2E || c == 0x65 || c == 0x45
    }

    @inline(__always)
    private static func same(_ a: UnsafeBufferPointer<UInt8>, _ s: StaticString) -> Bool {
        a.count == s.utf8CodeUnitCount && memcmp(a.baseAddress!, s.utf8Start, a.count) == 0
    }
}

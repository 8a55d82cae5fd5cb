import Foundation
import HotColdCore
import XMLStream

/// GPX 1.0 / 1.1 → fixes, one per `trkpt` or `rtept` (waypoints are places, not a track).
///
/// Reads `lat`/`lon`, `time`, `ele`, `hdop`, `sat`, `fix` and GPX 1.0's `speed` (m/s) and `course`
/// (degrees), the latter two also inside extensions (Garmin's TrackPointExtension uses the same
/// names). `pdop` has no place in a `Fix` and is not read. `fix`: none → no fix (and no
/// position), 2d → 2D, 3d/dgps/pps → 3D, absent → 3D with an elevation, else 2D.
///
/// Points without time are skipped as `.noTime`. XML that breaks before the first point throws a
/// `TrackReadError` with line and column; after it, reading stops, and the stats say where.
final class GPXTrackReader {
    private let scanner: XMLScanner
    private let path: String
    private(set) var stats = ReplayStats()
    private var stopped = false

    private struct Point {
        var depth = 0
        var lat: Double?, lon: Double?
        var time: Date?, timeInvalid = false
        var elevation: Double?, hdop: Double?, satellites: Int?
        var speed: Double?, course: Double?
        var fix: Fix.Mode?
    }
    private var point: Point?
    /// Points seen, used or not: before the first one, broken XML is a broken file.
    private var pointsSeen = 0

    init(lines: LineReader, path: String) {
        scanner = XMLScanner(source: lines)
        self.path = path
        stats.recordName = "point"
    }

    func next() throws -> Fix? {
        guard !stopped else { return nil }
        do {
            while let event = try scanner.next() {
                stats.lines = scanner.line
                if let fix = handle(event) { return fix }
            }
            stats.lines = scanner.line
            stopped = true
            return nil
        } catch let failure as XMLScanner.Failure {
            stats.lines = scanner.line
            stopped = true
            if pointsSeen == 0 {
                throw TrackReadError(path: path, reason: .malformedXML(
                    line: failure.line, column: failure.column, message: failure.message))
            }
            stats.skip(.malformedXML)
            stats.stoppedEarly = "malformed XML at line \(failure.line), column \(failure.column): \(failure.message)"
            return nil
        }
    }

    private func handle(_ event: XMLScanner.Event) -> Fix? {
        let name = scanner.localName
        switch event {
        case .start(let selfClosing):
            if point == nil {
                guard Self.is(name, "trkpt") || Self.is(name, "rtept") else { return nil }
                var p = Point(depth: scanner.depth)
                p.lat = scanner.attribute("lat").flatMap(Self.number)
                p.lon = scanner.attribute("lon").flatMap(Self.number)
                pointsSeen += 1
                if selfClosing { return finish(p) }
                point = p
            }
            return nil
        case .end:
            guard var p = point else { return nil }
            // The point's own end tag: one level above its children.
            if scanner.depth < p.depth {
                point = nil
                return finish(p)
            }
            let text = scanner.text
            let direct = scanner.depth == p.depth
            if direct, Self.is(name, "time") {
                p.time = Self.withTrimmed(text) { ISO8601.parse(String(decoding: $0, as: UTF8.self)) }
                p.timeInvalid = p.time == nil
            } else if direct, Self.is(name, "ele") {
                p.elevation = Self.number(text[...])
            } else if direct, Self.is(name, "hdop") {
                p.hdop = Self.number(text[...])
            } else if direct, Self.is(name, "sat") {
                p.satellites = Self.withTrimmed(text) { DecimalBytes.int($0) }
            } else if direct, Self.is(name, "fix") {
                p.fix = Self.withTrimmed(text) { Self.mode($0) }
            } else if Self.is(name, "speed") {
                p.speed = Self.number(text[...])
            } else if Self.is(name, "course") {
                p.course = Self.number(text[...])
            }
            point = p
            return nil
        }
    }

    private func finish(_ p: Point) -> Fix? {
        guard let lat = p.lat, let lon = p.lon else {
            stats.skip(.unparsable)
            return nil
        }
        if p.timeInvalid {
            stats.skip(.unparsable)
            return nil
        }
        guard let time = p.time else {
            stats.skip(.noTime)
            return nil
        }
        let mode = p.fix ?? (p.elevation != nil ? .threeD : .twoD)
        let coordinate = Coordinate(latitude: lat, longitude: lon)
        guard coordinate.isValid else {
            stats.skip(.unparsable)
            return nil
        }
        stats.fixes += 1
        guard mode >= .twoD else { return Fix(time: time, coordinate: nil, mode: mode) }
        return Fix(time: time, coordinate: coordinate, mode: mode, hdop: p.hdop,
                   speed: p.speed, track: p.course,
                   altitude: mode == .threeD ? p.elevation : nil, satellites: p.satellites)
    }

    private static func mode(_ text: UnsafeBufferPointer<UInt8>) -> Fix.Mode? {
        switch String(decoding: text, as: UTF8.self).lowercased() {
        case "none": .noFix
        case "2d": .twoD
        case "3d", "dgps", "pps": .threeD
        default: nil
        }
    }

    private static func number(_ b: ArraySlice<UInt8>) -> Double? {
        b.withUnsafeBufferPointer { DecimalBytes.double(trimmed($0)) }
    }

    private static func withTrimmed<R>(_ b: [UInt8], _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        b.withUnsafeBufferPointer { body(trimmed($0)) }
    }

    private static func trimmed(_ b: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var s = 0, e = b.count
        while s < e, b[s] <= 0x20 { s += 1 }
        while e > s, b[e - 1] <= 0x20 { e -= 1 }
        return UnsafeBufferPointer(rebasing: b[s..<e])
    }

    private static func `is`(_ name: ArraySlice<UInt8>, _ s: StaticString) -> Bool {
        name.elementsEqual(UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }
}

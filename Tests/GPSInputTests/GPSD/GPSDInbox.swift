import Foundation
import GPSInput
import HotColdCore

/// Collects what a GPSDSource delivers, with the monotonic time of arrival, and lets a test
/// wait (with a generous deadline) for a condition on it.
final class GPSDInbox: @unchecked Sendable {
    struct Entry {
        var input: GPSDEvent
        var at: ContinuousClock.Instant
    }

    private let condition = NSCondition()
    private var entries: [Entry] = []

    func append(_ input: GPSDEvent) {
        condition.lock()
        entries.append(Entry(input: input, at: ContinuousClock.now))
        condition.broadcast()
        condition.unlock()
    }

    var all: [Entry] {
        condition.lock()
        defer { condition.unlock() }
        return entries
    }

    var count: Int { all.count }

    /// Waits until `predicate(entries)` holds; false when `timeout` passes first.
    @discardableResult
    func wait(timeout: TimeInterval, until predicate: ([Entry]) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while !predicate(entries) {
            if !condition.wait(until: deadline) { return predicate(entries) }
        }
        return true
    }

    var fixes: [Fix] {
        all.compactMap { if case .fix(let f, _) = $0.input { return f } else { return nil } }
    }
}

extension GPSDEvent {
    var isConnected: Bool { if case .connected = self { return true } else { return false } }
    var isLost: Bool { if case .lost = self { return true } else { return false } }
    var fix: Fix? { if case .fix(let f, _) = self { return f } else { return nil } }
}

extension Fix {
    /// Every number in the fix is nil or finite.
    var hasNoNaN: Bool {
        let values = [coordinate?.latitude, coordinate?.longitude, epx, epy, eph, hdop, speed,
                      track, altitude, time.timeIntervalSince1970]
        return values.allSatisfy { $0 == nil || $0!.isFinite }
    }
}

/// One TPV of a gpsd 3.22 recording (`replay-gpsd-3.22/*.tpv.jsonl`).
struct RecordedTPV {
    var mode: Int
    var timeMs: Int64?
    var latitude: Double?
    var longitude: Double?

    static func load(_ url: URL) throws -> [RecordedTPV] {
        let iso = ISO8601DateFormatter()
        iso.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map { line in
            let obj = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            let time = (obj["time"] as? String).flatMap { iso.date(from: $0) }
            return RecordedTPV(
                mode: obj["mode"] as? Int ?? 0,
                timeMs: time.map(\.millisecondsSince1970),
                latitude: obj["lat"] as? Double, longitude: obj["lon"] as? Double)
        }
    }
}

extension Date {
    var millisecondsSince1970: Int64 { Int64((timeIntervalSince1970 * 1000).rounded()) }
}

/// Seconds between two monotonic readings.
func seconds(from a: ContinuousClock.Instant, to b: ContinuousClock.Instant) -> Double { (b - a).seconds }

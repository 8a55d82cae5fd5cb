import FuzzSupport
import GPSInput
import HotColdCore

/// The replay readers (NMEA 0183, gpsd JSON, GPX) behind `TrackReader`, fed a file per input.
///
/// Invariants: nothing traps or reads out of bounds (ASan); a reader either refuses the file
/// with a `TrackReadError` or yields fixes with finite times, and counts in `stats` exactly
/// the fixes it yielded.
public enum ReplayCheck {
    nonisolated(unsafe) static let file = ScratchFile(name: "track")

    public static func run(_ bytes: UnsafeRawBufferPointer) {
        file.write(bytes)
        let reader: TrackReader
        do { reader = try TrackReader(path: file.path) } catch { return }
        var yielded = 0
        do {
            while let fix = try reader.next() {
                yielded += 1
                fuzzCheck(fix.time.timeIntervalSince1970.isFinite, "fix with time \(fix.time)")
                if let c = fix.coordinate, fix.hasPosition {
                    fuzzCheck(c.isValid, "fix with position \(c)")
                }
            }
        } catch {
            fuzzCheck(error is TrackReadError, "next() threw \(type(of: error)): \(error)")
        }
        fuzzCheck(reader.stats.fixes == yielded, "stats.fixes \(reader.stats.fixes), yielded \(yielded)")
    }
}

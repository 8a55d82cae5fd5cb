import FuzzSupport
import GPSInput
import HotColdCore

/// The replay readers (NMEA 0183, gpsd JSON, GPX) behind `TrackReader`, fed a file per input.
///
/// Invariants: nothing traps or reads out of bounds (ASan); a reader either refuses the file
/// with a `TrackReadError` or yields fixes with finite times, and counts in `stats` exactly
/// the fixes it yielded; the fixes replay through the engine (as `hotcold replay` does) into
/// event lines that pass `checkEvent`.
public enum ReplayCheck {
    nonisolated(unsafe) static let file = ScratchFile(name: "track")
    /// Near the seed tracks (Coffs Harbour, Delft, Melbourne) and on the antimeridian.
    static let targets = [
        Target(id: "banana", name: "Big Banana", kind: .bigThing, coordinate: Coordinate(latitude: -30.2748, longitude: 153.1338)),
        Target(id: "delft", name: "Delft", coordinate: Coordinate(latitude: 52.0116, longitude: 4.3571)),
        Target(id: "melb", name: "Melbourne", coordinate: Coordinate(latitude: -37.8136, longitude: 144.9631)),
        Target(id: "am", name: "Antimeridian", coordinate: Coordinate(latitude: -16.5, longitude: 180)),
    ]

    public static func run(_ bytes: UnsafeRawBufferPointer) {
        file.write(bytes)
        let reader: TrackReader
        do { reader = try TrackReader(path: file.path) } catch { return }
        var yielded = 0
        var engine = ProximityEngine(targets: targets, mode: .hunt)
        do {
            while let fix = try reader.next() {
                yielded += 1
                fuzzCheck(fix.time.timeIntervalSince1970.isFinite, "fix with time \(fix.time)")
                if let c = fix.coordinate, fix.hasPosition {
                    fuzzCheck(c.isValid, "fix with position \(c)")
                }
                if yielded <= 500 { for event in engine.process(fix) { checkEvent(event) } }
            }
        } catch {
            fuzzCheck(error is TrackReadError, "next() threw \(type(of: error)): \(error)")
        }
        fuzzCheck(reader.stats.fixes == yielded, "stats.fixes \(reader.stats.fixes), yielded \(yielded)")
    }
}

import Foundation
import HotColdCore
import HotColdTestSupport

/// Deterministic test tracks with known truth: straight lines at a given speed, optional
/// seeded jitter, stops and no-fix stretches.
struct SyntheticDrive {
    var fixes: [Fix] = []
    var time: Double
    var position: Coordinate
    var eph: Double?
    var rng: SeededRandom

    init(start: Coordinate, time: Double = 1_700_000_000, eph: Double? = 5, seed: UInt64 = 42) {
        self.position = start
        self.time = time
        self.eph = eph
        self.rng = SeededRandom(seed: seed)
    }

    /// Moves `distance` metres along `bearing` at `speed` m/s, one fix every `interval` seconds.
    mutating func drive(bearing: Double, distance: Double, speed: Double, interval: Double = 1, jitter: Double = 0) {
        let step = speed * interval
        var covered = 0.0
        while covered + step <= distance + 1e-9 {
            covered += step
            time += interval
            position = Geodesic.direct(from: position, bearing: bearing, distance: step)
            emit(jitter: jitter, speed: speed, track: bearing)
        }
    }

    /// Stands still for `seconds`, one fix every `interval`.
    mutating func wait(seconds: Double, interval: Double = 1, jitter: Double = 0) {
        var t = 0.0
        while t + interval <= seconds + 1e-9 {
            t += interval
            time += interval
            emit(jitter: jitter, speed: 0, track: nil)
        }
    }

    /// `seconds` of mode-1 (no fix) reports while moving on along `bearing`.
    mutating func noFix(seconds: Double, bearing: Double = 0, speed: Double = 0, interval: Double = 1) {
        var t = 0.0
        while t + interval <= seconds + 1e-9 {
            t += interval
            time += interval
            position = Geodesic.direct(from: position, bearing: bearing, distance: speed * interval)
            fixes.append(Fix(time: Date(timeIntervalSince1970: time), coordinate: nil, mode: .noFix))
        }
    }

    /// A gap with no reports at all.
    mutating func silence(seconds: Double, bearing: Double = 0, speed: Double = 0) {
        time += seconds
        position = Geodesic.direct(from: position, bearing: bearing, distance: speed * seconds)
    }

    mutating func emit(jitter: Double, speed: Double?, track: Double?) {
        var p = position
        if jitter > 0 {
            let r = jitter * rng.gaussian(), b = rng.unit() * 360
            p = Geodesic.direct(from: p, bearing: b, distance: abs(r))
        }
        fixes.append(Fix(time: Date(timeIntervalSince1970: time), coordinate: p, mode: .threeD,
                         eph: eph, speed: speed, track: track))
    }
}

/// Runs fixes through an engine and returns all events.
func run(_ fixes: [Fix], _ targets: [Target], mode: TrackingMode = .hunt, config: EngineConfig = .default) -> [Event] {
    var engine = ProximityEngine(targets: targets, mode: mode, config: config)
    return fixes.flatMap { engine.process($0) }
}

extension [Event] {
    var arrivals: [Event.Passage] { compactMap { if case .arrived(let p) = $0 { p } else { nil } } }
    var departures: [Event.Passage] { compactMap { if case .departed(let p) = $0 { p } else { nil } } }
    var proximities: [Event.Proximity] { compactMap { if case .proximity(let p) = $0 { p } else { nil } } }
    var gpsStates: [GPSState] { compactMap { if case .gps(let g) = $0 { g.state } else { nil } } }
}

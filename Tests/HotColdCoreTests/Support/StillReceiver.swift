import Foundation
import HotColdCore
import HotColdTestSupport

/// How a synthetic receiver that is not moving scatters its fixes.
enum StillNoise: CustomStringConvertible, Sendable {
    /// Independent Gaussian errors per axis.
    case white
    /// A first-order autoregressive process per axis with this correlation time (seconds):
    /// the position drifts over tens of seconds rather than scattering fix by fix.
    case correlated(tau: Double)

    var description: String {
        switch self {
        case .white: "white"
        case .correlated(let tau): "AR(1) τ \(Int(tau)) s"
        }
    }
}

/// A receiver standing at one place for a while, reporting noisy fixes with known truth.
///
/// `sigma` is the per-axis 1-sigma error; the stated 95 % error (`eph`) is 2σ, a receiver
/// claiming good accuracy. Spikes, when asked for, are single fixes 35–50 m off in a random
/// direction, 20–60 s apart, stating the same accuracy as the rest. With `statesAccuracy`
/// false the fixes carry no `eph` at all, as from a GPX track or NMEA without GST.
struct StillReceiver {
    var position: Coordinate
    var sigma: Double
    var noise: StillNoise
    var spikes: Bool = false
    /// Reported ground speed: nil (none), or the magnitude of a small Gaussian error (Doppler noise).
    var speedNoise: Double? = nil
    var seconds: Double = 600
    var interval: Double = 1
    var start: Double = 1_700_000_000
    var seed: UInt64 = 1
    var statesAccuracy = true

    func fixes() -> [Fix] {
        var rng = SeededRandom(seed: seed)
        let frame = LocalFrame(origin: position)
        // Metres east / north to degrees at this latitude, from the frame's own scale.
        let probe = frame.project(Coordinate(latitude: position.latitude + 0.001, longitude: position.longitude + 0.001))
        let degPerMetreLat = 0.001 / probe.y, degPerMetreLon = 0.001 / probe.x
        var ex = sigma * rng.gaussian(), ey = sigma * rng.gaussian()
        var nextSpike = spikes ? rng.uniform(20, 60) : .infinity
        var out: [Fix] = []
        var t = 0.0
        while t < seconds {
            t += interval
            switch noise {
            case .white:
                ex = sigma * rng.gaussian()
                ey = sigma * rng.gaussian()
            case .correlated(let tau):
                let phi = exp(-interval / tau), s = sigma * (1 - phi * phi).squareRoot()
                ex = phi * ex + s * rng.gaussian()
                ey = phi * ey + s * rng.gaussian()
            }
            var dx = ex, dy = ey
            if t >= nextSpike {
                let r = rng.uniform(35, 50), b = rng.uniform(0, 2 * .pi)
                dx += r * sin(b)
                dy += r * cos(b)
                nextSpike = t + rng.uniform(20, 60)
            }
            let c = Coordinate(latitude: position.latitude + dy * degPerMetreLat,
                               longitude: position.longitude + dx * degPerMetreLon)
            let speed = speedNoise.map { abs($0 * rng.gaussian()) }
            out.append(Fix(time: Date(timeIntervalSince1970: start + t), coordinate: c, mode: .threeD,
                           eph: statesAccuracy ? 2 * sigma : nil, speed: speed))
        }
        return out
    }
}

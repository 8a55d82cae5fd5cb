import Foundation
import HotColdCore
import Testing

/// Receivers that never move, standing on or near every default tier boundary for ten minutes
/// with white, time-correlated and spiky noise: the truth is one tier, no `hotter`/`colder`
/// and no arrival.
@Suite struct StillReceiverScenarioTests {
    static let target = Target(id: "t", name: "T", coordinate: Coordinate(latitude: -33.8688, longitude: 151.2093))

    struct Count: CustomStringConvertible {
        var tierChanges = 0, directions = 0, arrivals = 0
        var description: String { "\(tierChanges) tier changes, \(directions) hotter/colder, \(arrivals) arrivals" }
    }

    static func count(_ fixes: [Fix]) -> Count {
        let events = run(fixes, [target])
        let prox = events.proximities
        return Count(tierChanges: zip(prox, prox.dropFirst()).filter { $0.tier != $1.tier }.count,
                     directions: prox.filter { $0.trend == .hotter || $0.trend == .colder }.count,
                     arrivals: events.arrivals.count)
    }

    static let noises: [StillNoise] = [.white, .correlated(tau: 10), .correlated(tau: 30), .correlated(tau: 60)]

    /// Every default boundary, standing on it and 20 m outside it.
    static let placements: [(boundary: Double, offset: Double)] =
        TierLadder.default.bounds.flatMap { [($0, 0.0), ($0, 20.0)] }

    @Test(arguments: [2.0, 4.0, 12.0])
    func standingStillEarnsNothing(sigma: Double) {
        var failures: [String] = []
        var seed: UInt64 = 100
        for (boundary, offset) in Self.placements {
            for noise in Self.noises {
                for spikes in [false, true] {
                    for speedNoise in [nil, 0.2] as [Double?] {
                        seed += 1
                        let here = Geodesic.direct(from: Self.target.coordinate, bearing: Double(seed % 360),
                                                   distance: boundary + offset)
                        let fixes = StillReceiver(position: here, sigma: sigma, noise: noise, spikes: spikes,
                                                  speedNoise: speedNoise, seed: seed).fixes()
                        let c = Self.count(fixes)
                        if c.tierChanges + c.directions + c.arrivals > 0 {
                            failures.append("\(Int(boundary)) m + \(Int(offset)), \(noise), spikes \(spikes), speed \(speedNoise.map { "\($0)" } ?? "none"): \(c)")
                        }
                    }
                }
            }
        }
        let report = failures.joined(separator: "\n")
        #expect(failures.isEmpty, "σ \(sigma) m: \(failures.count) scenarios\n\(report)")
    }
}

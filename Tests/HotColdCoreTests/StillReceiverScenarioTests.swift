import Foundation
import HotColdCore
import HotColdDaemonTesting
import Testing

/// Receivers that never move, standing on or near every default tier boundary for ten minutes
/// with white, time-correlated and spiky noise: the truth is one tier, no `hotter`/`colder`
/// and no arrival.
@Suite(.offCooperativePool) struct StillReceiverScenarioTests {
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

    @Test("standing still, stating its accuracy", arguments: [2.0, 4.0, 12.0])
    func standingStillEarnsNothing(sigma: Double) {
        let r = Self.scenarios(sigma: sigma, statesAccuracy: true, speedNoises: [nil, 0.2])
        #expect(r.failures.isEmpty, "σ \(sigma) m: \(r.failures.count) scenarios\n\(r.report)")
    }

    /// NMEA without GST states no error but reports a Doppler speed: the engine learns the
    /// receiver's scatter from the fixes taken while that speed says it stands. Before it did,
    /// every one of the 112 scenarios at σ 12 m failed (tiers flipping, hotter and colder).
    /// The first dozen fixes, before the scatter is learned, may still place a 12 m receiver
    /// standing on a boundary across it once.
    @Test("standing still, stating no accuracy but a speed", arguments: [2.0, 4.0, 12.0])
    func standingStillWithoutStatedAccuracy(sigma: Double) {
        let r = Self.scenarios(sigma: sigma, statesAccuracy: false, speedNoises: [0.2])
        #expect(r.directions == 0, "σ \(sigma) m: hotter/colder from a receiver that stood still\n\(r.report)")
        #expect(r.failures.count <= (sigma > 4 ? 2 : 0), "σ \(sigma) m: \(r.failures.count) scenarios\n\(r.report)")
    }

    /// A GPX track states neither error nor speed. Up to a scatter of a couple of metres the
    /// default sigma holds; beyond that, a receiver's slow drift cannot be told from a slow walk
    /// by positions alone.
    @Test("standing still, stating neither accuracy nor speed")
    func standingStillWithPositionsOnly() {
        let r = Self.scenarios(sigma: 2, statesAccuracy: false, speedNoises: [nil])
        #expect(r.failures.isEmpty, "σ 2 m: \(r.failures.count) scenarios\n\(r.report)")
    }

    /// Every placement, noise and spike setting at one sigma: the scenarios that earned
    /// anything (a tier change, a hotter/colder or an arrival) and the hotter/colder count.
    static func scenarios(sigma: Double, statesAccuracy: Bool, speedNoises: [Double?])
        -> (failures: [String], directions: Int, report: String) {
        var failures: [String] = []
        var directions = 0
        var seed: UInt64 = 100
        for (boundary, offset) in Self.placements {
            for noise in Self.noises {
                for spikes in [false, true] {
                    for speedNoise in speedNoises {
                        seed += 1
                        let here = Geodesic.direct(from: Self.target.coordinate, bearing: Double(seed % 360),
                                                   distance: boundary + offset)
                        let fixes = StillReceiver(position: here, sigma: sigma, noise: noise, spikes: spikes,
                                                  speedNoise: speedNoise, seed: seed, statesAccuracy: statesAccuracy).fixes()
                        let c = Self.count(fixes)
                        directions += c.directions
                        if c.tierChanges + c.directions + c.arrivals > 0 {
                            failures.append("\(Int(boundary)) m + \(Int(offset)), \(noise), spikes \(spikes), speed \(speedNoise.map { "\($0)" } ?? "none"): \(c)")
                        }
                    }
                }
            }
        }
        return (failures, directions, failures.joined(separator: "\n"))
    }
}

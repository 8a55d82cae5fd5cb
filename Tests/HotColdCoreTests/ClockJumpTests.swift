import Foundation
import HotColdCore
import HotColdDaemonTesting
import Testing

/// A receiver that reports one far-future time, then one far-past time, then its true times
/// again (what the hostile-gpsd end-to-end test sends through libgps): the engine must return to
/// the true timeline after a short consistent run and arrive.
@Suite(.offCooperativePool) struct ClockJumpTests {
    @Test func aFutureAndAPastFixDoNotSwallowTheTrueTimeline() {
        let start = Coordinate(latitude: -30.30, longitude: 153.10)
        let target = Target(id: "t", name: "T", kind: .point, coordinate: Geodesic.direct(from: start, bearing: 90, distance: 300))
        var engine = ProximityEngine(targets: [target], mode: .hunt)
        let t0 = ISO8601.parse("2025-01-01T00:00:00Z")!
        func fix(_ s: Double, at time: Date? = nil) -> Fix {
            Fix(time: time ?? t0.addingTimeInterval(s), coordinate: Geodesic.direct(from: start, bearing: 90, distance: 10 * s), mode: .threeD)
        }
        var events: [Event] = []
        for s in 0...45 {
            if s == 10 {
                for iso in ["2099-06-01T00:00:00Z", "1985-01-01T00:00:00Z", "2025-02-18T04:40:39Z"] {
                    events += engine.process(fix(10, at: ISO8601.parse(iso)!))
                }
            }
            events += engine.process(fix(Double(s)))
        }
        let arrived = events.filter { if case .arrived = $0 { true } else { false } }
        #expect(arrived.count == 1, "stats: \(engine.stats)")
        #expect(arrived.first.map { $0.time < t0.addingTimeInterval(60) } == true)
    }
}

import Foundation
import GPSInput
import HotColdCore
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// Real receivers standing still: jitter must not make tiers, trends or arrivals flap.
@Suite(.offCooperativePool) struct StationaryRecordingTests {
    static let stationary = ["jl-micro-jlt", "sl869", "telit-he910", "quectel-l76k-nmea",
                             "quectel", "ublox-lea-5h", "ch-4711", "bu353s4"]

    /// Both the raw NMEA log and gpsd 3.22's own TPV output of it.
    static let cases: [String] = stationary.flatMap { ["gpsd-logs/\($0).log", "gpsd-logs/replay-gpsd-3.22/\($0).log.tpv.jsonl"] }

    @Test(arguments: cases)
    func stillReceiverDoesNotFlap(file: String) throws {
        let path = TestData.url(file).path
        let reader = try TrackReader(path: path)
        var fixes: [Fix] = []
        while let f = try reader.next() { fixes.append(f) }
        let positions = fixes.compactMap { $0.hasPosition ? $0.coordinate : nil }
        try #require(positions.count >= 3, "\(file) has \(positions.count) positions")
        // Targets 200 m and 1 km from the receiver's mean position, on a few bearings.
        let mean = Coordinate(latitude: positions.map(\.latitude).reduce(0, +) / Double(positions.count),
                              longitude: positions.map(\.longitude).reduce(0, +) / Double(positions.count))
        for bearing in [0.0, 135, 250] {
            for distance in [200.0, 1000] {
                let target = Target(id: "t", name: "T", coordinate:
                    Geodesic.direct(from: mean, bearing: bearing, distance: distance))
                var engine = ProximityEngine(targets: [target], mode: .hunt)
                let events = fixes.flatMap { engine.process($0) }
                let prox = events.compactMap { if case .proximity(let p) = $0 { p } else { nil } }
                let label = "\(file) target \(Int(distance)) m at \(Int(bearing))°"
                #expect(!events.contains { if case .arrived = $0 { true } else { false } }, "\(label): arrived")
                #expect(!events.contains { if case .departed = $0 { true } else { false } }, "\(label): departed")
                // Tier: whatever the first one was, it never changes (trend-only events keep it).
                let tierChanges = zip(prox, prox.dropFirst()).filter { $0.tier != $1.tier }.count
                #expect(tierChanges == 0, "\(label): \(tierChanges) tier changes")
                // Trend: at most one change after the first event (unknown -> steady), ignoring
                // the unknowns forced by no-fix or stale stretches in the recording.
                let trends = prox.map(\.trend).filter { $0 != .unknown }
                let flips = zip(trends, trends.dropFirst()).filter { $0 != $1 }.count
                #expect(flips == 0 && !trends.contains(.hotter) && !trends.contains(.colder),
                        "\(label): trends \(prox.map { "\(ISO8601.format($0.time)) \($0.trend.rawValue) \(Int($0.distance))" })")
            }
        }
    }
}

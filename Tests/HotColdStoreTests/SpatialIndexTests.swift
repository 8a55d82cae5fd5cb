import Foundation
import HotColdCore
import HotColdStore
import HotColdDaemonTesting
import Testing

@Suite(.offCooperativePool) struct SpatialIndexTests {
    /// Deterministic pseudo-random points over Australia (and a few across the antimeridian).
    func points(_ n: Int, seed: UInt64 = 42) -> [Target] {
        var s = seed
        func next() -> Double {
            s = s &* 6364136223846793005 &+ 1442695040888963407
            return Double(s >> 11) / Double(1 << 53)
        }
        return (0..<n).map { i in
            let lat = -44 + next() * 34, lon = i % 50 == 0 ? 179 + next() * 2 - 1 : 112 + next() * 42
            return Target(id: "p\(i)", name: "P\(i)", kind: .point,
                          coordinate: Coordinate(latitude: lat, longitude: lon > 180 ? lon - 360 : lon))
        }
    }

    @Test func nearestMatchesBruteForce() {
        let targets = points(5000)
        let index = SpatialIndex(targets)
        for q in points(50, seed: 7).map(\.coordinate) + [Coordinate(latitude: -16.5, longitude: 179.9)] {
            let got = index.nearest(to: q, k: 10)
            let want = targets.map { ($0.id, q.distance(to: $0.coordinate)) }
                .sorted { ($0.1, $0.0) < ($1.1, $1.0) }.prefix(10)
            #expect(got.map(\.target.id) == want.map(\.0))
            #expect(got.map(\.distance) == want.map(\.1))
        }
    }

    @Test func withinMatchesBruteForce() {
        let targets = points(3000)
        let index = SpatialIndex(targets)
        for q in points(30, seed: 9).map(\.coordinate) {
            let got = Set(index.within(150_000, of: q).map(\.target.id))
            let want = Set(targets.filter { q.distance(to: $0.coordinate) <= 150_000 }.map(\.id))
            #expect(got == want)
        }
    }

    @Test func smallAndEmpty() {
        #expect(SpatialIndex([]).nearest(to: Coordinate(latitude: 0, longitude: 0), k: 3).isEmpty)
        let two = SpatialIndex(points(2))
        #expect(two.nearest(to: Coordinate(latitude: -30, longitude: 140), k: 5).count == 2)
    }
}

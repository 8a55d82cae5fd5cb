import Foundation
import GPSInput
import HotColdCore
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// Earned tiers must not make real approaches late: on every golden drive, each tier change
/// the engine makes comes at most one accepted fix after the bare tier ladder (hysteresis and
/// accuracy margin only, the rule before tiers had to be earned) entered that tier.
///
/// The reference runs beside the engine on the same accepted fixes and the same distances
/// (`snapshot()` after each one), so only the earning rule is under test. Changes the bare
/// ladder makes and the engine never does (a wild fix, a standing receiver's wander: what
/// earning exists to refuse) are not latency and are not counted here; the still-receiver
/// scenarios and stationary recordings check that those stay refused.
@Suite(.offCooperativePool) struct GoldenTierLatencyTests {
    struct Entry: Sendable, CustomStringConvertible {
        var name: String
        var track: String
        var targets: String
        var roamRadius: Double?
        var description: String { name }
    }

    /// The manifest's entries, with their track and targets files resolved.
    static let entries: [Entry] = {
        guard let data = try? Data(contentsOf: TestData.repo("Tests/Golden/manifest.json")),
              let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let tracks = root["tracks"] as? [[String: Any]] else { return [] }
        var seen: Set<String> = []
        return tracks.compactMap { e in
            guard let name = e["name"] as? String, let targets = e["targets"] as? String else { return nil }
            let track = (e["repo_track"] as? String).map { TestData.repo($0).path }
                ?? (e["track"] as? String).map { TestData.url($0).path }
            guard let track else { return nil }
            let args = e["args"] as? [String] ?? []
            // The same track with the same targets in another output format adds nothing.
            let targetsPath = targets == "generate" ? "Tests/Golden/\(name).targets.json" : targets
            guard seen.insert(track + "|" + targetsPath).inserted else { return nil }
            var roam: Double? = nil
            if let i = args.firstIndex(of: "--roam"), i + 1 < args.count { roam = DistanceParser.metres(args[i + 1]) }
            return Entry(name: name, track: track, targets: TestData.repo(targetsPath).path, roamRadius: roam)
        }
    }()

    static func loadTargets(_ path: String) throws -> [Target] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let json = try JSONSerialization.jsonObject(with: data)
        let items = (json as? [[String: Any]]) ?? ((json as? [String: Any])?["things"] as? [[String: Any]]) ?? []
        return items.compactMap { item in
            guard let id = item["id"] as? String, let lat = item["lat"] as? Double, let lon = item["lon"] as? Double
            else { return nil }
            return Target(id: id, name: item["name"] as? String ?? id, coordinate: Coordinate(latitude: lat, longitude: lon))
        }
    }

    @Test func manifestHasEntries() {
        #expect(Self.entries.count >= 10)
    }

    @Test(arguments: entries)
    func earnedTiersAreAtMostOneFixLate(entry: Entry) throws {
        let reader = try TrackReader(path: entry.track)
        let targets = try Self.loadTargets(entry.targets)
        try #require(!targets.isEmpty, "\(entry.name): no targets in \(entry.targets)")
        let mode: TrackingMode = entry.roamRadius.map { .roam(radius: $0) } ?? .hunt
        var engine = ProximityEngine(targets: targets, mode: mode)
        let config = engine.config

        // Per target: the reference tier after each accepted fix, and the engine's.
        var reference: [String: TierTracker] = [:]
        var history: [String: [(fix: Int, ref: Int, engine: Int, distance: Double)]] = [:]
        var accepted = 0
        while let fix = try reader.next() {
            let before = engine.stats.accepted
            _ = engine.process(fix)
            guard engine.stats.accepted > before else { continue }
            accepted += 1
            var tracked: Set<String> = []
            for t in engine.snapshot() {
                let id = t.target.id
                tracked.insert(id)
                var r = reference[id] ?? TierTracker()
                _ = r.update(distance: t.distance, accuracy: engine.lastFix?.horizontalError,
                             ladder: config.tiers, config: config)
                reference[id] = r
                let engineIndex = config.tiers.tiers.firstIndex(of: t.tier) ?? -1
                history[id, default: []].append((accepted, r.index ?? -1, engineIndex, t.distance))
            }
            // A roaming target that left range starts afresh when it comes back.
            for id in reference.keys where !tracked.contains(id) {
                reference[id] = nil
                history[id, default: []].append((accepted, -2, -2, .nan))
            }
        }

        var late: [String] = []
        var changes = 0
        for (id, h) in history.sorted(by: { $0.key < $1.key }) {
            for k in h.indices.dropFirst() {
                let prev = h[k - 1], now = h[k]
                guard now.engine != prev.engine, prev.engine >= 0, now.engine >= 0 else { continue }
                changes += 1
                // When did the bare ladder last enter this tier, within the same stretch of tracking?
                var e = k
                while e > 0, h[e].ref >= 0, !(h[e].ref == now.engine && h[e - 1].ref != now.engine) { e -= 1 }
                let entered = h[e].ref == now.engine && e > 0 && h[e - 1].ref >= 0 ? h[e].fix : nil
                if let entered, now.fix - entered <= 1 { continue }
                let around = h[max(0, k - 4)..<min(h.count, k + 2)].map { "\($0.fix):\(Int($0.distance.rounded()))m ref \($0.ref) engine \($0.engine)" }
                late.append("\(id): engine \(prev.engine)→\(now.engine) at fix \(now.fix), the bare ladder at \(entered.map(String.init) ?? "never"); \(around.joined(separator: ", "))")
            }
        }
        #expect(late.isEmpty, "\(entry.name): \(late.count) of \(changes) tier changes more than one fix after the bare ladder's:\n\(late.joined(separator: "\n"))")
    }
}

import Foundation
import HotColdConfig
import HotColdCore
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// Every tunable of `EngineConfig` can be set from the `[engine]` table, is documented with its
/// default in the shipped file, and is range-checked with an error naming file, line and key.
@Suite(.offCooperativePool) struct EngineKeyCoverageTests {
    /// `key = value` lines of the shipped file's `[engine]` table, in order.
    static func shippedEngineLines() throws -> [(key: String, value: String)] {
        let text = try String(contentsOf: TestData.repo("config/hotcoldd.toml"), encoding: .utf8)
        var inEngine = false
        var lines: [(String, String)] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let s = line.trimmingCharacters(in: .whitespaces)
            if s.hasPrefix("[") { inEngine = s == "[engine]"; continue }
            guard inEngine, !s.hasPrefix("#"), let eq = s.range(of: " = ") else { continue }
            lines.append((String(s[..<eq.lowerBound]), String(s[eq.upperBound...])))
        }
        return lines
    }

    /// A different valid value for a documented default: whole numbers plus one, other numbers
    /// plus a quarter, distances one metre more (as a bare number of metres).
    static func perturbed(_ value: String) throws -> String {
        if value.hasPrefix("\"") {
            let d = try #require(DistanceParser.metres(value.trimmingCharacters(in: CharacterSet(charactersIn: "\""))))
            return "\(d + 1)"
        }
        if let i = Int(value) { return "\(i + 1)" }
        return "\(try #require(Double(value)) + 0.25)"
    }

    /// Labels of the stored properties of an engine configuration whose values differ.
    static func changedFields(_ a: EngineConfig, _ b: EngineConfig) -> Set<String> {
        let x = Mirror(reflecting: a).children, y = Mirror(reflecting: b).children
        var changed: Set<String> = []
        for (l, r) in zip(x, y) where "\(l.value)" != "\(r.value)" { changed.insert(l.label ?? "?") }
        return changed
    }

    @Test func everyEngineFieldHasItsOwnKeyInTheShippedFile() throws {
        let lines = try Self.shippedEngineLines()
        var covered: Set<String> = []
        for (key, value) in lines {
            let text = "[engine]\n\(key) = \(try Self.perturbed(value))\n"
            let c = try ConfigLoader.parse(text, file: "k.toml")
            let changed = Self.changedFields(EngineConfig(), c.engine)
            #expect(changed.count == 1, "\(key) changed \(changed.sorted())")
            covered.formUnion(changed)
        }
        // The ladder comes from [tiers]; every other field needs an [engine] key.
        let fields = Set(Mirror(reflecting: EngineConfig()).children.compactMap(\.label)).subtracting(["tiers"])
        #expect(covered == fields, "no key for \(fields.subtracting(covered).sorted())")
        #expect(Set(lines.map(\.key)).count == lines.count, "a key is documented twice")
    }

    @Test func stillnessAndJumpKeysAreRead() throws {
        let c = try ConfigLoader.parse("""
            [engine]
            max_jump_speed = 250
            max_jump_noise = "0.2km"
            still_sigmas = 6
            still_radius_min = "8m"
            moving_confirm_fixes = 4
            still_correlation_seconds = 45
            """, file: "s.toml")
        #expect(c.engine.maxJumpSpeed == 250 && c.engine.maxJumpNoise == 200)
        #expect(c.engine.stillSigmas == 6 && c.engine.stillRadiusMin == 8)
        #expect(c.engine.movingConfirmFixes == 4 && c.engine.stillCorrelationSeconds == 45)
    }

    @Test(arguments: [
        ("still_sigmas = 101", "engine.still_sigmas", "from 0.0 to 100.0"),
        ("still_sigmas = -1", "engine.still_sigmas", "from 0.0 to 100.0"),
        ("still_sigmas = nan", "engine.still_sigmas", "finite"),
        ("still_radius_min = \"11km\"", "engine.still_radius_min", "from 0.0 to 10000.0"),
        ("still_radius_min = -3", "engine.still_radius_min", "expected a distance"),
        ("moving_confirm_fixes = 0", "engine.moving_confirm_fixes", "1 to 1000"),
        ("moving_confirm_fixes = 2.5", "engine.moving_confirm_fixes", "expected an integer"),
        ("still_correlation_seconds = 0", "engine.still_correlation_seconds", "positive"),
        ("still_correlation_seconds = 1e9", "engine.still_correlation_seconds", "from 0.0 to 86400.0"),
        ("max_jump_speed = 50", "engine.max_jump_speed", "at least max_speed"),
        ("max_jump_speed = inf", "engine.max_jump_speed", "finite"),
        ("max_jump_noise = \"101km\"", "engine.max_jump_noise", "from 0.0 to 100000.0"),
    ])
    func outOfRangeValuesNameFileLineAndKey(_ line: String, _ key: String, _ expectation: String) throws {
        do {
            _ = try ConfigLoader.parse("# engine\n[engine]\n\(line)\n", file: "bad.toml")
            Issue.record("accepted: \(line)")
        } catch {
            #expect(error.key == key && error.line == 3, "\(error)")
            #expect(error.description.hasPrefix("bad.toml:3: \(key): "), "\(error)")
            #expect(error.message.contains(expectation), "\(error.message)")
        }
    }
}

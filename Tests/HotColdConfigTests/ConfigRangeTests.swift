import HotColdConfig
import HotColdCore
import HotColdDaemonTesting
import Testing

/// Values a config file can hold that once reached a trapping conversion (`Int(Double)` on a
/// count, `UInt64(interval * 1e9)` in the sync loop) or meant nothing (`inf`, `nan`): each is now
/// an error naming its key and line.
@Suite(.offCooperativePool) struct ConfigRangeTests {
    static func error(_ text: String) -> ConfigError? {
        do {
            _ = try ConfigLoader.parse(text, file: "bad.toml")
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: [
        ("[engine]\noutlier_run_to_reset = 9223372036854775807\n", "engine.outlier_run_to_reset", "1 to 1000"),
        ("[engine]\narrival_dwell_fixes = -9223372036854775808\n", "engine.arrival_dwell_fixes", "1 to 1000"),
        ("[engine]\ndeparture_dwell_fixes = 0\n", "engine.departure_dwell_fixes", "1 to 1000"),
        ("[engine]\noutlier_run_to_reset = 1e300\n", "engine.outlier_run_to_reset", "expected an integer"),
        ("[engine]\nmax_speed = inf\n", "engine.max_speed", "finite"),
        ("[engine]\nstale_after_seconds = nan\n", "engine.stale_after_seconds", "finite"),
        ("[engine]\narrival_radius = \"1e306km\"\n", "engine.arrival_radius", "positive number"),
        ("[api]\nsync_interval = 1e300\n", "api.sync_interval", "30 days"),
        ("[api]\nsync_interval = inf\n", "api.sync_interval", "finite"),
        ("[tracking]\nroam_radius = 1e300\n", "tracking.roam_radius", "20000km"),
        ("[tracking]\nroam_radius = \"1e306km\"\n", "tracking.roam_radius", "20000km"),
    ])
    func outOfRangeValuesNameKeyAndLine(_ text: String, _ key: String, _ expectation: String) throws {
        let e = try #require(Self.error(text), "accepted: \(text)")
        #expect(e.key == key && e.line == 2, "\(e)")
        #expect(e.message.contains(expectation), "\(e.message)")
    }

    @Test func countsAtTheLimitsAreAccepted() throws {
        let c = try ConfigLoader.parse("[engine]\narrival_dwell_fixes = 1\noutlier_run_to_reset = 1000\n[api]\nsync_interval = 2592000\n",
                                       file: "ok.toml")
        #expect(c.engine.arrivalDwellFixes == 1 && c.engine.outlierRunToReset == 1000)
        #expect(c.api.syncIntervalSeconds == 2_592_000)
    }
}

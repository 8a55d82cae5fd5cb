import Foundation
import HotColdConfig
import HotColdCore
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

@Suite(.offCooperativePool) struct ConfigLoaderTests {
    @Test func shippedFileParsesToTheDefaults() throws {
        let path = TestData.repo("config/hotcoldd.toml").path
        let c = try ConfigLoader.load(path: path)
        // The file documents every default, so loading it must change nothing.
        #expect(c == Configuration())
        #expect(c.engine.tiers == .default)
    }

    @Test func everyEngineKeyInTheShippedFileIsKnown() throws {
        // Each documented key must be one the loader reads (no silent typos in the docs).
        let text = try String(contentsOf: TestData.repo("config/hotcoldd.toml"), encoding: .utf8)
        let changed = text.replacingOccurrences(of: "arrival_radius = \"100m\"", with: "arrival_radius = \"80m\"")
        let c = try ConfigLoader.parse(changed, file: "x.toml")
        #expect(c.engine.arrivalRadius == 80)
    }

    @Test func socketCapsAndQuotasAreReadAndRangeChecked() throws {
        let c = try ConfigLoader.parse("""
            [socket]
            max_clients = 200
            max_clients_per_user = 8
            write_burst = 3
            writes_per_second = 0.5
            [quotas]
            locations_per_user = 7
            pending_submissions_per_user = 2
            """, file: "t.toml")
        #expect(c.socket.maxClients == 200 && c.socket.maxClientsPerUser == 8)
        #expect(c.socket.writeBurst == 3 && c.socket.writesPerSecond == 0.5)
        #expect(c.quotas.locationsPerUser == 7 && c.quotas.pendingSubmissionsPerUser == 2)
        #expect(c.quotas.observationsPerUser == 100_000)
        let e = #expect(throws: ConfigError.self) {
            try ConfigLoader.parse("[socket]\nmax_clients_per_user = 0\n", file: "bad.toml")
        }
        #expect(e?.description == "bad.toml:2: socket.max_clients_per_user: expected a whole number from 1 to 65536, got 0")
        let r = #expect(throws: ConfigError.self) {
            try ConfigLoader.parse("[socket]\nwrites_per_second = nan\n", file: "bad.toml")
        }
        #expect(r?.key == "socket.writes_per_second")
    }

    @Test func stagingAndImportQuotasAreReadAndRangeChecked() throws {
        let c = try ConfigLoader.parse("""
            [quotas]
            imported_places_per_user = 500
            staged_mib_per_user = 32
            staged_idle_seconds = 90
            free_space_reserve_mib = 0
            """, file: "t.toml")
        #expect(c.quotas.importedPlacesPerUser == 500 && c.quotas.stagedMiBPerUser == 32)
        #expect(c.quotas.stagedIdleSeconds == 90 && c.quotas.freeSpaceReserveMiB == 0)
        let e = #expect(throws: ConfigError.self) {
            try ConfigLoader.parse("[quotas]\nstaged_idle_seconds = 0\n", file: "bad.toml")
        }
        #expect(e?.key == "quotas.staged_idle_seconds")
    }

    @Test func distancesTakeUnits() throws {
        let c = try ConfigLoader.parse("""
            [engine]
            arrival_radius = "0.08km"
            departure_radius = 120
            [tracking]
            roam_radius = "25 km"
            """, file: "t.toml")
        #expect(c.engine.arrivalRadius == 80)
        #expect(c.engine.departureRadius == 120)
        #expect(c.tracking.roamRadius == 25_000)
    }

    @Test func unknownKeyNamesKeyAndLine() {
        let e = #expect(throws: ConfigError.self) {
            try ConfigLoader.parse("""
                [gpsd]
                host = "localhost"

                [engine]
                arival_radius = 100
                """, file: "bad.toml")
        }
        #expect(e?.key == "engine.arival_radius")
        #expect(e?.line == 5)
        #expect(e?.description.hasPrefix("bad.toml:5: engine.arival_radius: unknown key") == true)
    }

    @Test func badValueNamesKeyLineAndExpectation() {
        let e = #expect(throws: ConfigError.self) {
            try ConfigLoader.parse("""
                # comment
                [engine]
                arrival_radius = "close"
                """, file: "bad.toml")
        }
        #expect(e?.line == 3)
        #expect(e?.key == "engine.arrival_radius")
        #expect(e?.message.contains("expected a distance") == true)
    }

    @Test func wrongTypeIsReported() {
        let e = #expect(throws: ConfigError.self) {
            try ConfigLoader.parse("[gpsd]\nport = \"2947\"\n", file: "bad.toml")
        }
        #expect(e?.description == "bad.toml:2: gpsd.port: expected an integer, got string")
    }

    @Test func inconsistentValuesAreReported() {
        let e = #expect(throws: ConfigError.self) {
            try ConfigLoader.parse("[engine]\narrival_radius = 200\ndeparture_radius = 150\n", file: "c.toml")
        }
        #expect(e?.key == "engine.departure_radius")
        #expect(e?.line == 3)
    }

    @Test func syntaxErrorGivesLine() {
        let e = #expect(throws: ConfigError.self) {
            try ConfigLoader.parse("[gpsd]\nhost = \"a\"\nport = = 3\n", file: "s.toml")
        }
        #expect(e?.line == 3)
    }

    @Test func customTierLadder() throws {
        let c = try ConfigLoader.parse("""
            [tiers]
            names = ["here", "near", "far"]
            bounds = ["50m", "1km"]
            """, file: "t.toml")
        #expect(c.engine.tiers.tiers.map(\.name) == ["here", "near", "far"])
        #expect(c.engine.tiers.tiers.map(\.level) == [2, 1, 0])
        #expect(c.engine.tiers.index(for: 999) == 1)
    }

    @Test func badTierLadderIsReported() {
        let e = #expect(throws: ConfigError.self) {
            try ConfigLoader.parse("[tiers]\nnames = [\"a\", \"b\"]\nbounds = [\"1km\", \"2km\"]\n", file: "t.toml")
        }
        #expect(e?.key == "tiers.bounds")
        #expect(e?.message.contains("2 tier names need 1 boundaries") == true)
    }

    @Test func missingFileIsReported() {
        let e = #expect(throws: ConfigError.self) { try ConfigLoader.load(path: "/nonexistent/h.toml") }
        #expect(e?.description.contains("/nonexistent/h.toml") == true)
    }
}

import Foundation
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// The live page in Debian's chromium, driven by selenium (Tests/Browser/live_page.py), against
/// real gpsd, hotcoldd and hotcold-web processes. The script prints one line per check.
@Suite("the live page in a real browser", .offCooperativePoolOwnLane, .serialized)
struct BrowserTests {
    static var haveBrowser: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium")
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver")
            && GPSDHarness.gpsdAvailable
    }

    @Test("tiles around the fix, each asked for once, let through by the CSP; default focus, tap to focus, course-up; Near me's map at 320-800 px",
          .enabled(if: haveBrowser), .timeLimit(.minutes(5)))
    func tiles() async throws {
        let script = TestData.repo("Tests/Browser/tiles.py")
        let r = try await onThread {
            try Subprocess.run(URL(fileURLWithPath: "/usr/bin/python3"), [script.path, "--bin", Binaries.directory.path],
                               currentDirectory: TestData.repoRoot)
        }
        print(r.stdout)
        #expect(r.status == 0, "\(r.stdout)\n\(r.stderr.suffix(3000))")
    }

    @Test("the page a driver can trust: writes name their target and do exactly that, a note stays with its place while the focus moves, a delayed STATUS never replaces a newer event, offline greyed everywhere, errors cleared, friends marked",
          .enabled(if: haveBrowser), .timeLimit(.minutes(5)))
    func trust() async throws {
        try await run("Tests/Browser/trust.py")
    }

    @Test("the catalogue's longest names at 320, 360, 390 and 800 px wide, portrait and landscape: nothing outside the viewport, nothing that matters clipped, the radar scaled to the focus, local time",
          .enabled(if: haveBrowser), .timeLimit(.minutes(5)))
    func layout() async throws {
        try await run("Tests/Browser/layout.py")
    }

    @Test("Big Things: the daemon's own search a page at a time (by name, rating, distance; text and state), only the last answer shown, a place's page with favourite and rating 0–5; Near me; My places; About",
          .enabled(if: haveBrowser), .timeLimit(.minutes(4)))
    func things() async throws {
        try await run("Tests/Browser/things.py")
    }

    @Test("Geocaches (hint hidden until asked, its waypoints nearest first and back, hunt it, mark it found), Friends (follow, likes by name, like once, new finds and follows as they happen, unfollow), My places (rename, delete after a confirmation naming it), Field (list, detail, add at the fix, correct and delete one), Submit a Big Thing with a photo, a long press on the radar adds a place there, nothing to press with the daemon gone; each at 320, 360, 390 and 800 px wide with long names",
          .enabled(if: haveBrowser), .timeLimit(.minutes(5)))
    func screens() async throws {
        try await run("Tests/Browser/screens.py")
    }

    @Test("gone places marked in Near me, the live list and their page and never offered beside a hunt; a cache's whole listing (long description as text, never run; its link) with its parking as a stage; seven star taps one feed item saying 0 of 5; at 320, 390 and 800 px",
          .enabled(if: haveBrowser), .timeLimit(.minutes(4)))
    func listings() async throws {
        try await run("Tests/Browser/listings.py")
    }

    @Test("scripts/demo prints the live page's address and the page follows the 2024 drive live (ages by age_s); Ctrl-C stops it all",
          .enabled(if: haveBrowser && GPSDHarness.gpsfakeAvailable), .timeLimit(.minutes(5)))
    func demo() async throws {
        try await run("Tests/Browser/demo_page.py")
    }

    @Test("DNS rebinding: from a website's name resolved to the box, chromium gets 421 for the page, the stream, reads and writes, and the page's script never runs; at the box's own address it works",
          .enabled(if: haveBrowser), .timeLimit(.minutes(5)))
    func rebinding() async throws {
        try await run("Tests/Browser/rebinding.py")
    }

    private func run(_ path: String) async throws {
        let script = TestData.repo(path)
        let r = try await onThread {
            try Subprocess.run(URL(fileURLWithPath: "/usr/bin/python3"), [script.path, "--bin", Binaries.directory.path],
                               currentDirectory: TestData.repoRoot)
        }
        print(r.stdout)
        #expect(r.status == 0, "\(r.stdout)\n\(r.stderr.suffix(3000))")
    }
}

/// The live drive on its own: the longest browser test (a minute alone, more beside the rest of
/// the suite) runs beside the serialized screens above instead of before them, two chromiums at
/// most at once (three starved the in-process HTTP tests of CPU on two cores).
@Suite("the live page in a real browser, live", .offCooperativePoolOwnLane)
struct LivePageBrowserTests {
    @Test("distance and tier within 1 s of a fix, ARRIVED, restart without a gap, writes refused unpaired, layouts fit",
          .enabled(if: BrowserTests.haveBrowser), .timeLimit(.minutes(5)))
    func livePage() async throws {
        let script = TestData.repo("Tests/Browser/live_page.py")
        // On a thread of its own: a minute's wait must not hold one of the pool's two threads.
        let r = try await onThread {
            try Subprocess.run(URL(fileURLWithPath: "/usr/bin/python3"), [script.path, "--bin", Binaries.directory.path, "--figures"],
                               currentDirectory: TestData.repoRoot)
        }
        print(r.stdout)
        #expect(r.status == 0, "\(r.stdout)\n\(r.stderr.suffix(3000))")
    }
}

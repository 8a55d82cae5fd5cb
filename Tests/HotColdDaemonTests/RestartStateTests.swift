import Foundation
import HotColdConfig
@testable import HotColdDaemon
@testable import HotColdProtocol
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// What a restart keeps and announces (issue 25): a start without the clean-stop mark writes
/// one GAP line for every number the last run may have handed out beyond the log, so a
/// `watch` with `since` across it says `since_gap`, and `status` shows the unclean stop; a
/// clean stop writes no GAP; the hunt set at run time comes back, unless a flag or an edited
/// `[tracking]` asks for something else.
@Suite(.offCooperativePool) struct RestartStateTests {
    static func logLines(_ path: String) -> [String] {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// Waits (up to 30 s) until `condition` holds; polls, never a fixed sleep.
    static func eventually(_ what: String, _ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while !condition() {
            guard ContinuousClock.now < deadline else { Issue.record("timed out waiting for \(what)"); return }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    @Test func aStartAfterAnUncleanStopAnnouncesWhatTheLogMayHaveLost() async throws {
        let dir = try TemporaryDirectory("restart-gap")
        defer { dir.remove() }
        let first = try InProcessDaemon(directory: dir)
        for n in 1...3 { first.parts.host.announce(.queued(QueuedEvent(time: Date(), pending: n))) }
        let log = first.configuration.log.path
        try await Self.eventually("three events in the log") { Self.logLines(log).count >= 3 }
        let reserved = first.parts.outputs.sequence.status.reservedThrough
        await first.stop(keep: true)            // no clean-stop mark: a power cut
        // The log's last number (the daemon may have said more than the three, e.g. GPS lost).
        let seqs: [Int] = Self.logLines(log).compactMap { line in LineClient.object(line)?["seq"] as? Int }
        let logged = try #require(seqs.max())

        let second = try InProcessDaemon(directory: dir)
        let gaps = Self.logLines(log).compactMap { try? GapEvent.decode(line: $0) }
        let gap = try #require(gaps.first, "a GAP line after the unclean stop")
        #expect(gaps.count == 1 && gap.firstSeq == logged + 1 && gap.seq == reserved, "\(gaps)")
        let status = try WireCoding.decode(StatusReply.self, from: try await second.ask(.status))
        let unclean = try #require(status.uncleanStop)
        #expect(unclean.gapFirstSeq == logged + 1 && unclean.gapLastSeq == reserved && unclean.lastLoggedSeq == logged)
        // A subscriber resuming from before the cut is told.
        let watch = try await second.ask(.watch(WatchRequest(enable: true, since: 1)))
        let reply = try WireCoding.decode(WatchReply.self, from: watch)
        #expect(reply.sinceGap == reserved + 1, "\(watch)")
        // New numbers start above everything the cut run may have used.
        second.parts.host.announce(.queued(QueuedEvent(time: Date(), pending: 9)))
        try await Self.eventually("the new event in the log") { Self.logLines(log).count >= logged + 2 }
        let newest = try #require(Self.logLines(log).last.flatMap { LineClient.object($0)?["seq"] as? Int })
        #expect(newest > reserved)
        await second.stop(clean: true, keep: true)

        // A clean stop: no new GAP, and status still names the last unclean stop.
        let third = try InProcessDaemon(directory: dir)
        #expect(Self.logLines(log).compactMap { try? GapEvent.decode(line: $0) }.count == 1)
        let again = try WireCoding.decode(StatusReply.self, from: try await third.ask(.status))
        #expect(again.uncleanStop?.gapFirstSeq == logged + 1)
        await third.stop(clean: true, keep: true)
    }

    @Test func theHuntSetAtRunTimeSurvivesARestartUnlessAFlagOrTheConfigurationSaysOtherwise() async throws {
        let dir = try TemporaryDirectory("restart-hunt")
        defer { dir.remove() }
        let first = try InProcessDaemon(directory: dir)
        let hunt = HuntRequest(targets: ["-30.2,153.1,Alpha", "-30.3,153.2,Bravo", "-30.4,153.3,Charlie"])
        #expect(try await first.ask(.hunt(hunt)).contains(#""class":"TRACKING""#))
        await first.stop(keep: true)            // the ignition: no clean stop

        let second = try InProcessDaemon(directory: dir)
        let s2 = try WireCoding.decode(StatusReply.self, from: try await second.ask(.status))
        #expect(s2.tracking.mode == "hunt" && s2.tracking.candidates == 3, "\(s2.tracking)")
        #expect(Set(s2.targets.map(\.target.name)).isSubset(of: ["Alpha", "Bravo", "Charlie"]))
        // A roam set at run time is kept too.
        #expect(try await second.ask(.roam(RoamRequest(radius: 25_000))).contains(#""mode":"roam""#))
        await second.stop(clean: true, keep: true)

        let third = try InProcessDaemon(directory: dir)
        let s3 = try WireCoding.decode(StatusReply.self, from: try await third.ask(.status))
        #expect(s3.tracking.mode == "roam" && s3.tracking.radiusM == 25_000, "\(s3.tracking)")
        await third.stop(keep: true)

        // A flag wins over what was kept …
        var flags = DaemonOverrides()
        flags.targets = ["-31,152,Flagged"]
        let fourth = try InProcessDaemon(directory: dir, overrides: flags)
        let s4 = try WireCoding.decode(StatusReply.self, from: try await fourth.ask(.status))
        #expect(s4.tracking.mode == "hunt" && s4.tracking.candidates == 1, "\(s4.tracking)")
        await fourth.stop(keep: true)

        // … and so does a [tracking] section edited since the roam was kept.
        let fifth = try InProcessDaemon(directory: dir) { c in c.tracking.targets = ["-32,151,Edited"] }
        let s5 = try WireCoding.decode(StatusReply.self, from: try await fifth.ask(.status))
        #expect(s5.tracking.mode == "hunt" && s5.tracking.candidates == 1, "\(s5.tracking)")
        await fifth.stop(keep: true)
    }
}

import Foundation
import HotColdCore
import HotColdProtocol
import HotColdDaemonTesting
import Testing
@testable import HotColdScreen

@Suite(.offCooperativePool) struct ScreenModelTests {
    typealias F = ScreenFixtures

    @Test func statusSetsTheTrackedSetAndEventsUpdateIt() {
        var m = F.hunt()
        #expect(m.focus?.name == "Big Banana")
        #expect(m.focus?.etaS == 120)
        #expect(m.others.map(\.name) == ["Giant Koala", "Big Prawn", "Big Pineapple"])
        // A later status recomputes the ETA from its distance at the event's rate of approach,
        // and drops targets no longer tracked.
        m.apply(F.status([F.target("a", "Big Banana", 800, tier: 6, tierName: "hot")]))
        #expect(m.focus?.distanceM == 800 && abs((m.focus?.etaS ?? 0) - 800 * 120 / 850) < 1e-9)
        #expect(m.others.isEmpty)
        let ref = TargetRef(id: "a", name: "Big Banana", kind: .bigThing)
        m.apply(.arrived(.init(time: F.t0, target: ref, distance: 20)))
        #expect(m.focus?.arrived == true)
        #expect(ScreenRenderer.render(m, width: 40, height: 10, style: .plain).contains { $0.contains("ARRIVED") })
        m.apply(.departed(.init(time: F.t0, target: ref, distance: 150)))
        #expect(m.focus?.arrived == false)
        m.apply(.gps(.init(time: F.t0, state: .lost)))
        #expect(ScreenRenderer.render(m, width: 40, height: 10, style: .plain)[0].hasPrefix("GPS lost"))
    }

    /// A configured ladder of four tiers fills the gauge at its own hottest, not at the default's.
    @Test func theDaemonsLadderSetsTheGaugesFullScale() throws {
        var m = ScreenModel(socketPath: "/s", now: F.t0)
        m.apply(F.status([F.target("a", "Big Banana", 40, tier: 3, tierName: "here")]))
        #expect(m.hottestTier == 7)                       // an older daemon: the default ladder
        m.apply(F.status([F.target("a", "Big Banana", 40, tier: 3, tierName: "here")], tiers: ["far", "near", "close", "here"]))
        #expect(m.hottestTier == 3)
        let lines = ScreenRenderer.render(m, width: 40, height: 12, style: .plain)
        let gauge = try #require(lines.first { $0.hasSuffix(" here") }, "\(lines)")
        #expect(gauge.contains("#") && !gauge.contains("."), "\(lines)")
        // A ladder beyond what a screen accepts is ignored, not trusted.
        m.apply(F.status([], tiers: Array(repeating: "x", count: 500)))
        #expect(m.hottestTier == 3)
    }

    @Test func theFixAgeCountsFromWhenTheScreenSawTheFix() {
        var m = ScreenModel(socketPath: "/s", now: F.t0.addingTimeInterval(1000))
        m.apply(F.status([]))
        m.now = F.t0.addingTimeInterval(1004)
        #expect(m.fixAge == 4)
        // The same fix again does not reset the age; a new one does.
        m.apply(F.status([]))
        #expect(m.fixAge == 4)
        var next = F.status([])
        next.gps.lastFix?.time = F.t0.addingTimeInterval(1)
        m.apply(next)
        #expect(m.fixAge == 0)
    }

    @Test func outOfRangeValuesStopAtTheModel() {
        var m = ScreenModel(socketPath: "/s", now: F.t0)
        let ref = TargetRef(id: "x", name: "X", kind: .point)
        m.apply(.proximity(.init(time: F.t0, target: ref, distance: 10, bearing: 0, tier: 1_000_000,
                                 tierName: "hot", trend: .steady, eta: -5)))
        #expect(m.focus?.tier == ScreenModel.maximumTier)
        #expect(m.focus?.etaS == nil)
        var s = F.status([F.target("y", "Y", 5, tier: 7, tierName: "burning")])
        s.targets[0].distanceM = -1
        m.apply(s)
        #expect(m.focus == nil)
        s.gps.lastFix?.mode = 42
        s.gps.lastFix?.satellites = -3
        m.apply(s)
        #expect(m.gps.mode == nil && m.gps.satellites == nil)
    }

    @Test func losingTheDaemonForgetsWhatItSaid() {
        var m = F.hunt()
        m.lose("connection reset\u{1B}[2J")
        #expect(m.link == .gone("connection reset\u{FFFD}[2J"))
        #expect(m.focus == nil && m.gps.state == "unknown")
        m.apply(F.status([F.target("a", "A", 5, tier: 7, tierName: "burning")]))
        #expect(m.link == .connected && m.focus?.name == "A")
    }

    @Test func timesAndWidths() {
        #expect(TimeText.eta(45) == "45 s")
        #expect(TimeText.eta(61) == "2 min")
        #expect(TimeText.eta(3600 + 5 * 60) == "1 h 5 min")
        #expect(TimeText.eta(3600 + 12 * 60) == "1 h 12 min" && TimeText.eta(7200) == "2 h" && TimeText.eta(400) == "7 min")
        #expect(TimeText.eta(1e12) == ">99 h" && TimeText.eta(.nan) == "?")
        #expect(TimeText.age(3.7) == "3s" && TimeText.age(125) == "2m" && TimeText.age(1e15) == ">99d")
        #expect(DisplayWidth.of("Big") == 3)
        #expect(DisplayWidth.of("大きい") == 6)
        #expect(DisplayWidth.of("e\u{301}") == 1)
        #expect(DisplayWidth.of("🍌") == 2)
        #expect(DisplayWidth.of("\u{2764}\u{FE0F}") == 2)
    }
}

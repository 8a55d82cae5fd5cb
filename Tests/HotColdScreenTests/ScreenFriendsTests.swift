import Foundation
import HotColdCore
import HotColdProtocol
import HotColdDaemonTesting
import Testing
@testable import HotColdScreen

/// Friends on the live screen: beside places, named as friends, never shown when stale, and
/// never the automatic focus while a place is tracked.
@Suite(.offCooperativePool) struct ScreenFriendsTests {
    typealias F = ScreenFixtures

    static func friend(_ who: String, _ name: String, _ distance: Double?, stale: Bool = false) -> StatusReply.Friend {
        StatusReply.Friend(who: who, name: name, distanceM: distance, bearingDeg: distance.map { _ in 90 },
                           tier: distance.map { _ in 5 }, tierName: distance.map { _ in "warm" },
                           trend: stale ? "unknown" : "hotter", arrived: false, ageS: stale ? 400 : 2, stale: stale)
    }

    @Test func friendsAreShownBesidePlacesButNotAsTheFocus() {
        var m = ScreenModel(socketPath: "/s", now: F.t0)
        var s = F.status([F.target("a", "Big Banana", 900, tier: 4, tierName: "mild")])
        s.friends = [Self.friend("jane/ute", "Jane", 300), Self.friend("bob/car", "Bob", nil, stale: true)]
        m.apply(s)
        #expect(m.focus?.name == "Big Banana", "a nearer friend does not take the focus from a place")
        #expect(m.others.map(\.name) == ["Jane (friend)"], "a stale friend is not shown as current")
        #expect(m.others.first?.isFriend == true && m.others.first?.id == "friend:jane/ute")
        let lines = ScreenRenderer.render(m, width: 60, height: 16, style: .plain)
        #expect(lines.contains { $0.contains("Jane (friend)") }, "\(lines)")
        // n reaches the friend; with no place tracked, the friend is the focus.
        m.cycleFocus(by: 1)
        #expect(m.focus?.name == "Jane (friend)")
        m.clearFocusChoice()
        var alone = F.status([])
        alone.friends = [Self.friend("jane/ute", "Jane", 300)]
        m.apply(alone)
        #expect(m.focus?.name == "Jane (friend)")
        // Its PROXIMITY events update it like a place's.
        m.apply(.proximity(.init(time: F.t0, target: TargetRef(id: "friend:jane/ute", name: "Jane", kind: .friend),
                                 distance: 120, bearing: 80, tier: 6, tierName: "hot", trend: .hotter)))
        #expect(m.focus?.distanceM == 120 && m.focus?.name == "Jane (friend)")
    }
}

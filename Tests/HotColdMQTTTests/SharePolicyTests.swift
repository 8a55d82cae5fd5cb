import Foundation
import HotColdConfig
import HotColdCore
@testable import HotColdMQTT
import HotColdProtocol
import HotColdDaemonTesting
import Testing

/// `[share]`: what leaves the car, per policy and layout (the end-to-end suite checks every
/// message a real broker carries; this holds the rules one by one).
@Suite(.offCooperativePool) struct SharePolicyTests {
    let arrived = #"{"class":"ARRIVED","seq":9,"distance_m":83.1,"target":{"id":"big-banana","kind":"bigthing","name":"Big Banana"},"time":"2026-11-25T07:25:04.000Z"}"#
    let departed = #"{"class":"DEPARTED","seq":10,"distance_m":160.2,"target":{"id":"big-banana","kind":"bigthing","name":"Big Banana"},"time":"2026-11-25T07:27:04.000Z"}"#
    let proximity = #"{"class":"PROXIMITY","seq":8,"bearing_deg":90.0,"distance_m":300.0,"target":{"id":"big-banana","kind":"bigthing","name":"Big Banana"},"tier":5,"tier_name":"warm","time":"2026-11-25T07:24:04.000Z","trend":"hotter"}"#
    let metFriend = #"{"class":"ARRIVED","seq":11,"distance_m":40.0,"target":{"id":"friend:jane/ute","kind":"friend","name":"Jane"},"time":"2026-11-25T07:30:00.000Z"}"#
    let banana = Coordinate(latitude: -30.2748, longitude: 153.1338)

    func settings(_ share: SharePolicy, layout: TopicLayout = .hotcold, homeAssistant: Bool = false) throws -> BridgeSettings {
        var c = BridgeConfiguration()
        c.topics.layout = layout
        c.topics.user = "jane"
        c.topics.device = "ute"
        c.share.share = share
        c.homeAssistant.enabled = homeAssistant
        return try BridgeSettings(config: c, file: "x", environment: [:])
    }

    func pubs(_ line: String, _ s: BridgeSettings) throws -> [Publication] {
        SharedPublications.forEvent(try EventMessage(bridgeLine: line), settings: s, waypoint: banana, accuracy: 6)
    }

    let feedItem = #"{"class":"FEED_ITEM","author":"jane","device":"ute","kind":"arrived","place":{"id":"big-banana","kind":"bigthing","name":"Big Banana"},"seq":9,"time":"2026-11-25T07:25:04.000Z"}"#

    @Test func positionsSharesEverythingAndAddsTheFeedItem() throws {
        let s = try settings(.positions)
        #expect(try pubs(arrived, s).map(\.topic) == ["hotcold/jane/ute/event", "hotcold/jane/ute/visit", "hotcold/jane/ute/arrival",
                                                      "hotcold/jane/ute/feed"])
        #expect(try pubs(arrived, s).last == Publication(topic: "hotcold/jane/ute/feed", payload: feedItem))
        #expect(try pubs(proximity, s).map(\.topic) == ["hotcold/jane/ute/event"])
        // Meeting a friend is no message at all: not a feed item, and not the car's own event,
        // visit or arrival (where two friends met is theirs), in either layout.
        #expect(try pubs(metFriend, s).isEmpty)
        #expect(try pubs(metFriend, try settings(.positions, layout: .owntracks)).isEmpty)
        #expect(SharedPublications.retainedToClear(settings: s).isEmpty)
    }

    @Test func visitsSharesArrivalsWithoutDistanceOrCoordinates() throws {
        let s = try settings(.visits)
        let a = try pubs(arrived, s)
        #expect(a == [Publication(topic: "hotcold/jane/ute/arrival",
                                  payload: #"{"class":"ARRIVED","seq":9,"target":{"id":"big-banana","kind":"bigthing","name":"Big Banana"},"time":"2026-11-25T07:25:04.000Z"}"#,
                                  retain: true),
                      Publication(topic: "hotcold/jane/ute/feed", payload: feedItem)])
        // The event's own line less its distance, byte for byte (the one encoder writes both).
        #expect(a.first?.payload == arrived.replacingOccurrences(of: #""distance_m":83.1,"#, with: ""))
        #expect(try pubs(proximity, s).isEmpty)
        #expect(try pubs(departed, s).isEmpty)
        #expect(Set(SharedPublications.retainedToClear(settings: s).map(\.topic))
                == ["hotcold/jane/ute/state", "hotcold/jane/ute/location", "hotcold/jane/ute/nearest"])
        #expect(SharedPublications.retainedToClear(settings: s).allSatisfy { $0.payload.isEmpty && $0.retain })
        // OwnTracks: transitions stay (enter/leave), without the waypoint's lat/lon or acc; the
        // feed goes to the hotcold topics, where followers look.
        let ot = try settings(.visits, layout: .owntracks)
        let t = try pubs(arrived, ot)
        #expect(t.map(\.topic) == ["owntracks/jane/ute/event", "hotcold/jane/ute/feed"])
        let transition = try #require(t.first.flatMap { try? JSONSerialization.jsonObject(with: Data($0.payload.utf8)) as? [String: Any] })
        #expect(transition["lat"] == nil && transition["lon"] == nil && transition["acc"] == nil)
        #expect(transition["desc"] as? String == "Big Banana")
        #expect(SharedPublications.retainedToClear(settings: ot).map(\.topic) == ["owntracks/jane/ute"])
        let full = try pubs(arrived, try settings(.positions, layout: .owntracks))
        #expect(full.first?.payload.contains(#""lat":-30.2748"#) == true)
    }

    @Test func nothingPublishesNoVisitAndClearsWhatWasShared() throws {
        let s = try settings(.nothing, homeAssistant: true)
        for line in [arrived, departed, proximity, metFriend] { #expect(try pubs(line, s).isEmpty) }
        let cleared = Set(SharedPublications.retainedToClear(settings: s).map(\.topic))
        #expect(cleared.isSuperset(of: ["hotcold/jane/ute/state", "hotcold/jane/ute/location", "hotcold/jane/ute/nearest",
                                        "hotcold/jane/ute/arrival",
                                        "homeassistant/device_tracker/hotcold_jane_ute/location/config",
                                        "homeassistant/sensor/hotcold_jane_ute/last_arrival/config"]))
        #expect(try pubs(arrived, try settings(.nothing, layout: .owntracks)).isEmpty)
    }

    @Test func homeAssistantIsToldOnlyWhatIsShared() throws {
        let ha = try #require(try settings(.visits, homeAssistant: true).homeAssistant)
        #expect(ha.configs(sharing: .positions).count == 5)
        #expect(ha.configs(sharing: .visits).map(\.topic) == ["homeassistant/sensor/hotcold_jane_ute/last_arrival/config"])
        #expect(ha.configs(sharing: .nothing).isEmpty)
        let cleared = SharedPublications.retainedToClear(settings: try settings(.visits, homeAssistant: true)).map(\.topic)
        #expect(cleared.contains("homeassistant/device_tracker/hotcold_jane_ute/location/config"))
        #expect(!cleared.contains("homeassistant/sensor/hotcold_jane_ute/last_arrival/config"))
    }

    @Test func configReadsFriendsAndShare() throws {
        let c = try BridgeConfigLoader.parse("[friends]\nclub = \"hotcold/club-x\"\n[share]\nshare = \"visits\"\nrecords = false\n", file: "b.toml")
        #expect(c.friends.club == "hotcold/club-x" && c.share.share == .visits && !c.share.records)
        #expect(throws: ConfigError.self) { try BridgeConfigLoader.parse("[share]\nshare = \"some\"\n", file: "b") }
        #expect(throws: ConfigError.self) { try BridgeConfigLoader.parse("[friends]\nclub = \"hotcold/#\"\n", file: "b") }
        #expect(throws: ConfigError.self) { try BridgeConfigLoader.parse("[friends]\nfollow = \"x\"\n", file: "b") }
    }
}

import Foundation
import HotColdConfig
import HotColdCore
@testable import HotColdMQTT
import HotColdProtocol
import HotColdDaemonTesting
import Testing

/// The discovery configuration field by field, as Home Assistant's MQTT docs name them.
@Suite(.offCooperativePool) struct HomeAssistantDiscoveryTests {
    let topics = Topics(prefix: "hotcold", user: "jane", device: "ute.1")

    func object(_ p: Publication) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(p.payload.utf8)) as? [String: Any])
    }

    @Test func oneDeviceATrackerAndFourSensorsAllRetainedWithAvailabilityOnTheStatusTopic() throws {
        let ha = HomeAssistantDiscovery(prefix: "ha", topics: topics, user: "jane", device: "ute.1", expireAfter: 600)
        let configs = ha.configs()
        #expect(configs.map(\.topic) == [
            "ha/device_tracker/hotcold_jane_ute_1/location/config",
            "ha/sensor/hotcold_jane_ute_1/distance/config",
            "ha/sensor/hotcold_jane_ute_1/tier/config",
            "ha/sensor/hotcold_jane_ute_1/trend/config",
            "ha/sensor/hotcold_jane_ute_1/last_arrival/config",
        ])
        #expect(configs.allSatisfy { $0.retain })
        var ids = Set<String>()
        for c in configs {
            let o = try object(c)
            #expect(o["availability_topic"] as? String == "hotcold/jane/ute.1/status")
            #expect(o["payload_available"] as? String == "online" && o["payload_not_available"] as? String == "offline")
            let device = try #require(o["device"] as? [String: Any])
            #expect(device["identifiers"] as? [String] == ["hotcold_jane_ute_1"])
            #expect((o["origin"] as? [String: Any])?["name"] as? String == "hotcold-mqtt")
            ids.insert(try #require(o["unique_id"] as? String))
            // 2025.10 warns about object_id alone and 2026.4 reads only default_entity_id
            // (<domain>.<object_id>); older releases drop the key they do not know.
            let objectID = try #require(o["object_id"] as? String)
            let domain = c.topic.split(separator: "/")[1]
            #expect(o["default_entity_id"] as? String == "\(domain).\(objectID)")
        }
        #expect(ids.count == 5)
        let tracker = try object(configs[0])
        #expect(tracker["source_type"] as? String == "gps")
        #expect(tracker["json_attributes_topic"] as? String == "hotcold/jane/ute.1/location")
        let distance = try object(configs[1])
        #expect(distance["device_class"] as? String == "distance")
        #expect(distance["unit_of_measurement"] as? String == "m")
        #expect(distance["state_class"] as? String == "measurement")
        #expect(distance["expire_after"] as? Int == 600)
        #expect(distance["state_topic"] as? String == "hotcold/jane/ute.1/nearest")
        let arrival = try object(configs[4])
        #expect(arrival["expire_after"] == nil)    // an arrival stays what it was
        #expect(ha.birthTopic == "ha/status")
    }

    @Test func retainedStateMessagesSayWhenTheyWereTrue() throws {
        let fixTime = Date(timeIntervalSince1970: 1_732_346_704)
        let s = status(
            "fix",
            lastFix: .init(time: fixTime, lat: -30.3, lon: 153.1, mode: 3, accuracyM: 8.6),
            targets: [
                .init(target: TargetRef(id: "far", name: "Far", kind: .point), distanceM: 900, bearingDeg: 10, tier: 2,
                      tierName: "cold", trend: "colder", arrived: false),
                .init(target: TargetRef(id: "near", name: "Near", kind: .point), distanceM: 120.04, bearingDeg: 10, tier: 6,
                      tierName: "hot", trend: "hotter", arrived: false),
            ],
            time: fixTime.addingTimeInterval(2))
        let loc = try object(try #require(HotColdLayout.location(s, topics: topics)))
        #expect(loc["time"] as? String == "2024-11-23T07:25:04.000Z")
        #expect(loc["gps_accuracy"] as? Int == 9)
        #expect(loc["latitude"] as? Double == -30.3)
        let near = try object(HotColdLayout.nearest(s, topics: topics))
        #expect(near["time"] as? String == "2024-11-23T07:25:06.000Z")
        #expect((near["target"] as? [String: Any])?["id"] as? String == "near")
        #expect(near["distance_m"] as? Double == 120.0)
        #expect(near["tier_name"] as? String == "hot" && near["trend"] as? String == "hotter")
        let state = try object(HotColdLayout.state(s, seq: 4, topics: topics))
        #expect(state["time"] as? String == "2024-11-23T07:25:06.000Z")
        #expect(HotColdLayout.state(s, seq: 4, topics: topics).retain)
    }

    @Test func configurationNamesItsSectionAndRefusesDiscoveryForOwnTracksTopics() throws {
        let c = try BridgeConfigLoader.parse("[homeassistant]\nenabled = true\nprefix = \"hass\"\nexpire_after = 120\n", file: "b.toml")
        #expect(c.homeAssistant.enabled && c.homeAssistant.prefix == "hass" && c.homeAssistant.expireAfter == 120)
        #expect(throws: ConfigError.self) {
            try BridgeConfigLoader.parse("[topics]\nlayout = \"owntracks\"\n[homeassistant]\nenabled = true\n", file: "b.toml")
        }
        #expect(throws: ConfigError.self) { try BridgeConfigLoader.parse("[homeassistant]\nprefix = \"a/+\"\n", file: "b.toml") }
    }
}

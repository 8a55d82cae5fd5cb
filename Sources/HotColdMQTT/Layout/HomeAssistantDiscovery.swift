#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HotColdProtocol

/// Home Assistant MQTT discovery for the hotcold layout: retained configuration messages under
/// `<prefix>/<component>/<node>/<object>/config` that make Home Assistant show the car with no
/// YAML — one device (identifiers, origin) with a `device_tracker` and four sensors, all
/// available while the bridge's retained `…/status` says `online` (its Last Will says
/// `offline`).
///
/// | entity | reads | |
/// |---|---|---|
/// | device_tracker `location` | `…/location` (attributes `latitude`, `longitude`, `gps_accuracy`) | `source_type: gps` |
/// | sensor `distance` | `…/nearest` `distance_m` | `device_class: distance`, m, `state_class: measurement` |
/// | sensor `tier`, `trend` | `…/nearest` `tier_name`, `trend` | |
/// | sensor `last_arrival` | `…/arrival` (the last ARRIVED) target name | |
///
/// The measured sensors carry `expire_after`, so a state older than that shows as unknown
/// rather than as the car's position now; the bridge sends `…/nearest` again every half of it
/// while nothing changes (parked), so a sensor of a live car never expires. Home Assistant forgets nothing it was told retained,
/// but a restarted Home Assistant re-subscribes; the bridge also re-publishes the configuration
/// when Home Assistant's birth message (`<prefix>/status` = `online`) arrives, as its docs ask.
///
/// ```swift
/// let ha = HomeAssistantDiscovery(prefix: "homeassistant", topics: topics, user: "jane", device: "ute", expireAfter: 600)
/// ha.configs().map(\.topic)   // ["homeassistant/device_tracker/hotcold_jane_ute/location/config", …]
/// ```
struct HomeAssistantDiscovery: Sendable, Equatable {
    var prefix: String
    var topics: Topics
    /// `hotcold_<user>_<device>`, with anything but letters, digits, `_` and `-` made `_`.
    var nodeID: String
    var deviceName: String
    var expireAfter: Int

    init(prefix: String, topics: Topics, user: String, device: String, expireAfter: Int) {
        self.prefix = prefix
        self.topics = topics
        let raw = "hotcold_\(user)_\(device)"
        nodeID = String(raw.unicodeScalars.map { s -> Character in
            s.properties.isAlphabetic && s.isASCII || ("0"..."9").contains(s) || s == "_" || s == "-" ? Character(s) : "_"
        })
        deviceName = "hotcold \(device)"
        self.expireAfter = expireAfter
    }

    /// Where Home Assistant announces itself (`online` after it starts).
    var birthTopic: String { prefix + "/status" }

    struct Device: Encodable, Equatable {
        var identifiers: [String]
        var name: String
        var manufacturer = "hotcold"
        var model = "hotcoldd + hotcold-mqtt"
        var sw_version = ProtocolVersion.release
    }

    struct Origin: Encodable, Equatable {
        var name = "hotcold-mqtt"
        var sw_version = ProtocolVersion.release
    }

    /// One entity's configuration (Home Assistant's own key names).
    struct Config: Encodable {
        var name: String
        var unique_id: String
        /// Home Assistant before 2025.10 names the entity from `object_id`; 2025.10 warns and
        /// 2026.4 reads only `default_entity_id` (`<domain>.<object_id>`). Both are sent: the
        /// discovery schemas of either drop a key they do not know.
        var object_id: String
        var default_entity_id: String
        var state_topic: String?
        var value_template: String?
        var json_attributes_topic: String?
        var unit_of_measurement: String?
        var device_class: String?
        var state_class: String?
        var source_type: String?
        var expire_after: Int?
        var icon: String?
        var availability_topic: String
        var payload_available = HotColdLayout.online
        var payload_not_available = HotColdLayout.offline
        var qos = 1
        var device: Device
        var origin = Origin()
    }

    func config(_ component: String, _ object: String, name: String, build: (inout Config) -> Void) -> Publication {
        var c = Config(name: name, unique_id: "\(nodeID)_\(object)", object_id: "\(nodeID)_\(object)",
                       default_entity_id: "\(component).\(nodeID)_\(object)",
                       availability_topic: topics.status,
                       device: Device(identifiers: [nodeID], name: deviceName))
        build(&c)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json = (try? encoder.encode(c)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        return Publication(topic: "\(prefix)/\(component)/\(nodeID)/\(object)/config", payload: json, retain: true)
    }

    /// Renders `None` (Home Assistant: unknown) when the field is absent (no target tracked).
    static func field(_ path: String) -> String {
        "{{ value_json.\(path) if value_json.\(path) is defined else None }}"
    }

    /// Whether the entity configured on `topic` may be announced under `share`: everything
    /// under `positions`, only the last arrival under `visits`, nothing under `nothing`.
    func sharedUnder(_ share: SharePolicy, topic: String) -> Bool {
        switch share {
        case .positions: true
        case .visits: topic.hasSuffix("/last_arrival/config")
        case .nothing: false
        }
    }

    /// The configuration messages `share` allows (`configs()` filtered).
    func configs(sharing share: SharePolicy) -> [Publication] {
        configs().filter { sharedUnder(share, topic: $0.topic) }
    }

    /// The retained configuration messages, device tracker first.
    func configs() -> [Publication] {
        let expiry = expireAfter > 0 ? expireAfter : nil
        return [
            config("device_tracker", "location", name: "Location") {
                $0.json_attributes_topic = topics.location
                $0.source_type = "gps"
            },
            config("sensor", "distance", name: "Nearest target distance") {
                $0.state_topic = topics.nearest
                $0.value_template = Self.field("distance_m")
                $0.json_attributes_topic = topics.nearest
                $0.unit_of_measurement = "m"
                $0.device_class = "distance"
                $0.state_class = "measurement"
                $0.expire_after = expiry
            },
            config("sensor", "tier", name: "Nearest target tier") {
                $0.state_topic = topics.nearest
                $0.value_template = Self.field("tier_name")
                $0.expire_after = expiry
                $0.icon = "mdi:thermometer"
            },
            config("sensor", "trend", name: "Nearest target trend") {
                $0.state_topic = topics.nearest
                $0.value_template = Self.field("trend")
                $0.expire_after = expiry
                $0.icon = "mdi:trending-up"
            },
            config("sensor", "last_arrival", name: "Last arrival") {
                $0.state_topic = topics.arrival
                $0.value_template = Self.field("target.name")
                $0.json_attributes_topic = topics.arrival
                $0.icon = "mdi:map-marker-check"
            },
        ]
    }
}

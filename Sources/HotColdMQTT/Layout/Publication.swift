/// One MQTT message the bridge sends: always QoS 1; `retain` only for state (the last fix, the
/// bridge's status, OwnTracks' location), never for events.
public struct Publication: Sendable, Equatable {
    public var topic: String
    public var payload: String
    public var retain: Bool

    public init(topic: String, payload: String, retain: Bool = false) {
        self.topic = topic
        self.payload = payload
        self.retain = retain
    }
}

/// One MQTT message the bridge sends: always QoS 1; `retain` only for state (the last fix, the
/// bridge's status, OwnTracks' location), never for events.
public struct Publication: Sendable, Equatable {
    public var topic: String
    public var payload: String
    var retain: Bool
    /// MQTT v5's message expiry interval, seconds: the broker forgets the message (a retained
    /// position too) once it is this old on the broker's own clock, and tells a late
    /// subscriber how much is left. Ages are never judged by comparing two devices' clocks.
    var expirySeconds: UInt32?

    public init(topic: String, payload: String, retain: Bool = false, expirySeconds: UInt32? = nil) {
        self.topic = topic
        self.payload = payload
        self.retain = retain
        self.expirySeconds = expirySeconds
    }
}

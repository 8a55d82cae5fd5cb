import CMosquitto

/// A libmosquitto call failed: which call, and libmosquitto's own sentence for the code.
public struct MosquittoError: Error, CustomStringConvertible, Equatable {
    var call: String
    var code: Int32
    public var description: String
    /// For `mosquitto_publish`: the message id when libmosquitto queued the message although it
    /// returned an error (not connected: it sends the message after the next connect). Such a
    /// message must not be published again, or it reaches subscribers once per attempt.
    var queuedMid: Int32?

    init(_ call: String, _ code: Int32, queuedMid: Int32? = nil) {
        self.call = call
        self.code = code
        self.queuedMid = queuedMid
        description = "\(call): \(String(cString: mosquitto_strerror(code)))"
    }

    /// Codes `mosquitto_publish` (2.0) returns after it has put a QoS 1 message in its queue:
    /// the send failed, the message stays (see `message__queue` in libmosquitto's messages_mosq.c).
    static func publishQueued(_ code: Int32) -> Bool {
        code == MOSQ_ERR_NO_CONN.rawValue || code == MOSQ_ERR_CONN_LOST.rawValue || code == MOSQ_ERR_ERRNO.rawValue
    }
}

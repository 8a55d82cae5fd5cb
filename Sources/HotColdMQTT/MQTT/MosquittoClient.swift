import CMosquitto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
import Glibc
import NIOConcurrencyHelpers

/// One MQTT connection through libmosquitto, with a network thread of its own.
///
/// libmosquitto is thread-safe: `publish` may be called from any thread while the network
/// thread reads, writes, keeps the connection alive and resends unacknowledged QoS 1 messages
/// after a reconnect (the session is persistent). The thread is ours, not
/// `mosquitto_loop_start`'s: libmosquitto's own loop gives up for good on a protocol error (a
/// broker answering garbage, a malformed CONNACK) and resets its backoff whenever one read
/// succeeds, so a broken broker would either end the link or be retried at full speed. Here
/// every failed attempt waits `reconnectMin`…`reconnectMax` seconds (doubling, reset only by an
/// accepted CONNACK), whatever went wrong. What happens is reported to `handler`, on that thread.
///
/// ```swift
/// let client = try MosquittoClient(options: .init(host: "127.0.0.1", port: 1883, clientID: "car-1")) { signal in
///     if case .published(let mid) = signal { print("PUBACK", mid) }
/// }
/// try client.start()
/// let mid = try client.publish(Publication(topic: "t", payload: "hi"))
/// ```
public final class MosquittoClient: @unchecked Sendable {
    struct TLS: Sendable, Equatable {
        /// CA bundle to verify the broker with; nil: the system's trusted CAs.
        var caFile: String?
        /// Client certificate and key (PEM), both or neither.
        var certFile: String?
        var keyFile: String?

        init(caFile: String? = nil, certFile: String? = nil, keyFile: String? = nil) {
            self.caFile = caFile
            self.certFile = certFile
            self.keyFile = keyFile
        }
    }

    public struct Options: Sendable {
        var host: String
        var port: Int
        var clientID: String
        /// False: a persistent session, so the broker keeps our unacknowledged state and the
        /// subscriptions across disconnects.
        var cleanSession = false
        var keepalive = 60
        var username: String?
        var password: String?
        var tls: TLS?
        var will: Publication?
        var maxInflight = 20
        var reconnectMinSeconds = 1
        var reconnectMaxSeconds = 30
        /// The largest message this client takes, in bytes (nil: any MQTT allows, 256 MiB). Sent
        /// as MQTT v5's Maximum Packet Size on CONNECT, so the broker drops a larger message for
        /// this client instead of sending it; and checked again on arrival (a broker that ignores
        /// the property), where a larger payload is reported as `.oversized` without being
        /// copied, never as a `.message`.
        var maximumIncomingBytes: Int?

        public init(host: String, port: Int, clientID: String) {
            self.host = host
            self.port = port
            self.clientID = clientID
        }
    }

    /// What libmosquitto reports, on its network thread.
    public enum Signal: Sendable {
        /// CONNACK accepted; `sessionPresent`: the broker still had our session.
        case connected(sessionPresent: Bool)
        /// CONNACK refused (bad credentials, …), with the broker's reason.
        case refused(String)
        /// The connection is gone (`code` 0: we asked for it), with libmosquitto's sentence.
        case disconnected(code: Int32, reason: String)
        /// A connection attempt failed before any CONNACK (refused, unreachable, TLS).
        case attemptFailed(String)
        /// PUBACK for message `mid`; `reason` ≥ 128 (MQTT v5) means the broker refused it
        /// (135: not authorized, an ACL), with `reasonText` naming it.
        case published(mid: Int32, reason: Int32, reasonText: String)
        /// A message on a subscribed topic.
        case message(topic: String, payload: [UInt8], retained: Bool)
        /// A message larger than `maximumIncomingBytes`, dropped unread: its topic and size.
        case oversized(topic: String, bytes: Int)
    }

    private static let libraryReady: Bool = { mosquitto_lib_init() == MOSQ_ERR_SUCCESS.rawValue }()

    let mosq: OpaquePointer
    let box: HandlerBox
    let options: Options
    let lock = NIOLock()
    var started = false
    var stopRequested = false
    let threadDone = DispatchSemaphore(value: 0)

    public init(options: Options, handler: @escaping @Sendable (Signal) -> Void) throws(MosquittoError) {
        guard Self.libraryReady else { throw MosquittoError("mosquitto_lib_init", MOSQ_ERR_UNKNOWN.rawValue) }
        self.options = options
        box = HandlerBox(handler, maximumPayload: options.maximumIncomingBytes)
        guard let m = mosquitto_new(options.clientID, options.cleanSession,
                                    Unmanaged.passUnretained(box).toOpaque()) else {
            throw MosquittoError("mosquitto_new", MOSQ_ERR_NOMEM.rawValue)
        }
        mosq = m
        do throws(MosquittoError) {
            try configure()
        } catch {
            mosquitto_destroy(m)
            throw error
        }
    }

    deinit {
        stop()
        mosquitto_destroy(mosq)
    }

    private func configure() throws(MosquittoError) {
        // Our own thread runs the loop (see the type's comment): publish only queues and wakes it.
        try check("mosquitto_threaded_set", mosquitto_threaded_set(mosq, true))
        // MQTT v5: a refused publish comes back as a PUBACK reason code (v3.1.1 acknowledges it
        // as if delivered), and a broker says why it closes a connection ("Session taken over").
        try check("mosquitto_int_option(PROTOCOL_VERSION)",
                  mosquitto_int_option(mosq, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V5))
        try check("mosquitto_max_inflight_messages_set",
                  mosquitto_max_inflight_messages_set(mosq, UInt32(clamping: options.maxInflight)))
        try check("mosquitto_reconnect_delay_set",
                  mosquitto_reconnect_delay_set(mosq, UInt32(clamping: options.reconnectMinSeconds),
                                                UInt32(clamping: options.reconnectMaxSeconds), true))
        if options.username != nil || options.password != nil {
            try check("mosquitto_username_pw_set", mosquitto_username_pw_set(mosq, options.username, options.password))
        }
        if let tls = options.tls {
            if tls.caFile == nil {
                try check("mosquitto_int_option(TLS_USE_OS_CERTS)", mosquitto_int_option(mosq, MOSQ_OPT_TLS_USE_OS_CERTS, 1))
            }
            try check("mosquitto_tls_set", mosquitto_tls_set(mosq, tls.caFile, nil, tls.certFile, tls.keyFile, nil))
        }
        if let will = options.will {
            try check("mosquitto_will_set",
                      mosquitto_will_set(mosq, will.topic, Int32(will.payload.utf8.count), will.payload, 1, will.retain))
        }
        mosquitto_connect_v5_callback_set(mosq) { _, obj, rc, flags, _ in
            guard let obj else { return }
            let box = Unmanaged<HandlerBox>.fromOpaque(obj).takeUnretainedValue()
            if rc == 0 {
                box.accepted()
                box.handler(.connected(sessionPresent: flags & 1 != 0))
            } else {
                box.handler(.refused("\(MosquittoClient.reasonText(rc)) (reason \(rc))"))
            }
        }
        mosquitto_disconnect_v5_callback_set(mosq) { _, obj, rc, _ in
            guard let obj else { return }
            // A broker's DISCONNECT gives a v5 reason code (≥ 128); a local failure a MOSQ_ERR.
            let text = rc >= 128 ? MosquittoClient.reasonText(rc) : String(cString: mosquitto_strerror(rc))
            Unmanaged<HandlerBox>.fromOpaque(obj).takeUnretainedValue().handler(.disconnected(code: rc, reason: text))
        }
        mosquitto_publish_v5_callback_set(mosq) { _, obj, mid, reason, _ in
            guard let obj else { return }
            Unmanaged<HandlerBox>.fromOpaque(obj).takeUnretainedValue()
                .handler(.published(mid: mid, reason: reason, reasonText: reason >= 128 ? MosquittoClient.reasonText(reason) : ""))
        }
        mosquitto_message_callback_set(mosq) { _, obj, message in
            guard let obj, let m = message?.pointee, let topic = m.topic else { return }
            let box = Unmanaged<HandlerBox>.fromOpaque(obj).takeUnretainedValue()
            let count = Int(max(0, m.payloadlen))
            // The size first: an oversized payload is never copied into Swift (libmosquitto
            // frees its own buffer when the callback returns).
            if let cap = box.maximumPayload, count > cap {
                box.handler(.oversized(topic: String(cString: topic), bytes: count))
                return
            }
            let bytes: [UInt8] = m.payload.map { p in
                Array(UnsafeRawBufferPointer(start: p, count: count))
            } ?? []
            box.handler(.message(topic: String(cString: topic), payload: bytes, retained: m.retain))
        }
    }

    /// Queues one QoS 1 message; returns its message id (PUBACK comes as `.published(mid:)`).
    /// While disconnected, libmosquitto keeps it and sends it after the reconnect — and does
    /// so even when it returns an error (`NO_CONN`): see `MosquittoError.messageWasQueued`.
    @discardableResult
    public func publish(_ p: Publication) throws(MosquittoError) -> Int32 {
        var mid: Int32 = 0
        let bytes = Array(p.payload.utf8)
        var props: OpaquePointer? = nil
        defer { mosquitto_property_free_all(&props) }
        // 2: MQTT v5's Message Expiry Interval.
        if let expiry = p.expirySeconds { _ = mosquitto_property_add_int32(&props, 2, expiry) }
        let rc = bytes.withUnsafeBytes { raw in
            mosquitto_publish_v5(mosq, &mid, p.topic, Int32(clamping: raw.count), raw.baseAddress, 1, p.retain, props)
        }
        guard rc == MOSQ_ERR_SUCCESS.rawValue else {
            throw MosquittoError("mosquitto_publish \(p.topic)", rc, queuedMid: MosquittoError.publishQueued(rc) ? mid : nil)
        }
        return mid
    }

    /// Subscribes at QoS 1 (friends' topics, Home Assistant's birth, tests and the benchmark).
    public func subscribe(_ pattern: String) throws(MosquittoError) {
        try check("mosquitto_subscribe \(pattern)", mosquitto_subscribe(mosq, nil, pattern, 1))
    }

    /// Ends a subscription (a friend no longer followed).
    func unsubscribe(_ pattern: String) throws(MosquittoError) {
        try check("mosquitto_unsubscribe \(pattern)", mosquitto_unsubscribe(mosq, nil, pattern))
    }

    /// MQTT v5's name for a reason code ("Not authorized", "Session taken over").
    static func reasonText(_ code: Int32) -> String { String(cString: mosquitto_reason_string(code)) }

    func check(_ call: String, _ rc: Int32) throws(MosquittoError) {
        guard rc == MOSQ_ERR_SUCCESS.rawValue else { throw MosquittoError(call, rc) }
    }
}

/// Holds the handler where libmosquitto's C callbacks can find it (`obj`).
final class HandlerBox: @unchecked Sendable {
    let handler: @Sendable (MosquittoClient.Signal) -> Void
    /// `Options.maximumIncomingBytes`, where the C message callback can read it.
    let maximumPayload: Int?
    private let lock = NIOLock()
    private var acceptedSinceAsked = false
    init(_ handler: @escaping @Sendable (MosquittoClient.Signal) -> Void, maximumPayload: Int? = nil) {
        self.handler = handler
        self.maximumPayload = maximumPayload
    }

    /// A CONNACK accepted the connection (the network thread resets its backoff).
    func accepted() { lock.withLock { acceptedSinceAsked = true } }
    /// Whether one was accepted since the last call.
    func takeAccepted() -> Bool { lock.withLock { defer { acceptedSinceAsked = false }; return acceptedSinceAsked } }
}

import CMosquitto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import HotColdProtocol
import HotColdCore

extension MosquittoClient {
    /// Starts the network thread, which connects (and reconnects) with backoff. A broker that
    /// is not there yet is not an error: the thread keeps trying, reporting each failure.
    public func start() throws(MosquittoError) {
        lock.lock()
        defer { lock.unlock() }
        guard !started else { return }
        started = true
        stopRequested = false
        do {
            try BlockingThread.start(name: "hotcold-mqtt.network") { [self] in
                networkLoop()
                threadDone.signal()
            }
        } catch {
            started = false
            var e = MosquittoError("pthread_create", MOSQ_ERR_ERRNO.rawValue)
            e.description = error.description
            throw e
        }
    }

    /// Sends DISCONNECT (no Last Will), lets the thread write it, and stops the thread.
    public func stop() {
        lock.lock()
        guard started else { lock.unlock(); return }
        started = false
        stopRequested = true
        lock.unlock()
        threadDone.wait()
    }

    private var stopping: Bool { lock.withLock { stopRequested } }

    /// Connect, run the loop until the connection fails, wait, reconnect; until `stop()`.
    private func networkLoop() {
        var backoff = Backoff(initial: .seconds(max(1, options.reconnectMinSeconds)),
                              cap: .seconds(max(1, options.reconnectMinSeconds, options.reconnectMaxSeconds)))
        var connected = false
        var everTried = false
        while !stopping {
            if !connected {
                let rc = everTried ? mosquitto_reconnect(mosq) : firstConnect()
                everTried = true
                guard rc == MOSQ_ERR_SUCCESS.rawValue else {
                    box.handler(.attemptFailed(Self.describe(rc, call: "connect to \(options.host):\(options.port)")))
                    pause(backoff.nextDelay())
                    continue
                }
                connected = true
            }
            let rc = mosquitto_loop(mosq, 200, 1)
            if box.takeAccepted() { backoff.reset() }
            guard rc == MOSQ_ERR_SUCCESS.rawValue else {
                // The disconnect callback has said why (or, for a TCP connection that never got
                // its CONNACK, the next attempt will); wait before the next attempt whatever it was.
                connected = false
                pause(backoff.nextDelay())
                continue
            }
        }
        if connected {
            mosquitto_disconnect(mosq)
            let deadline = ContinuousClock.now + .seconds(1)
            while ContinuousClock.now < deadline, mosquitto_loop(mosq, 50, 1) == MOSQ_ERR_SUCCESS.rawValue {}
        }
    }

    /// The first CONNECT, with a session expiry interval: in MQTT v5 a session without one ends
    /// with the connection, and the broker would forget our subscriptions and in-flight state.
    /// With `maximumIncomingBytes`, the Maximum Packet Size too: the broker then drops a larger
    /// message for us rather than make libmosquitto read it whole into memory (which it does
    /// before any callback of ours could refuse it). `mosquitto_reconnect` sends the same
    /// properties again.
    private func firstConnect() -> Int32 {
        var props: OpaquePointer?
        defer { mosquitto_property_free_all(&props) }
        // 17: MQTT_PROP_SESSION_EXPIRY_INTERVAL (mqtt_protocol.h); a week, in seconds.
        _ = mosquitto_property_add_int32(&props, 17, 7 * 86_400)
        if let cap = options.maximumIncomingBytes {
            // 39: MQTT_PROP_MAXIMUM_PACKET_SIZE, the whole packet: the payload plus the topic
            // (at most 64 KiB) and properties, so the packet limit sits above the payload's.
            _ = mosquitto_property_add_int32(&props, 39, UInt32(clamping: cap + Self.packetOverheadBytes))
        }
        return mosquitto_connect_bind_v5(mosq, options.host, Int32(clamping: options.port), Int32(clamping: options.keepalive),
                                         nil, props)
    }

    /// What a PUBLISH carries beside its payload, at most: fixed header, a topic of up to
    /// 65,535 bytes, packet id, properties (mosquitto adds few).
    static let packetOverheadBytes = 70 * 1024

    /// Sleeps `d`, waking early for `stop()`.
    private func pause(_ d: Duration) {
        let until = ContinuousClock.now + d
        while !stopping, ContinuousClock.now < until { BlockingThread.sleep(seconds: 0.05) }
    }

    static func describe(_ rc: Int32, call: String) -> String {
        if rc == MOSQ_ERR_ERRNO.rawValue { return "\(call): \(String(cString: strerror(errno)))" }
        return "\(call): \(String(cString: mosquitto_strerror(rc)))"
    }
}

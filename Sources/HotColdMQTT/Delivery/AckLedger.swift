/// Which daemon events the broker has acknowledged, and so where to resume.
///
/// Every publication is registered under its MQTT message id (`mid`) with the sequence number
/// of the event it carries (nil for state and status messages). The broker's PUBACKs may come
/// in any order and the event's messages may be several (`event` and `visit`), so the ledger
/// keeps, per sequence number, how many messages are still unacknowledged, and the
/// **watermark** is the highest sequence number at and below which everything is acknowledged:
/// the number to store, and to ask `watch` `since` after a restart.
///
/// A PUBACK can arrive before `mosquitto_publish` has returned the mid (the network thread
/// runs meanwhile): such early acknowledgements are held until the mid is registered.
///
/// ```swift
/// var ledger = AckLedger(resumingAfter: 41)
/// ledger.handed(seq: 42, messages: 2)
/// ledger.register(mid: 7, seq: 42); ledger.register(mid: 8, seq: 42)
/// ledger.acknowledged(mid: 8); ledger.acknowledged(mid: 7)
/// ledger.watermark   // 42
/// ```
struct AckLedger: Sendable {
    /// The highest sequence number handed to the MQTT client (published or needing nothing).
    private(set) var lastHanded: UInt64?
    private var outstanding: [UInt64: Int] = [:]
    private var midToSeq: [Int32: UInt64?] = [:]
    private var earlyAcks: Set<Int32> = []

    /// Publications not yet acknowledged (events and state alike).
    var unacknowledged: Int { midToSeq.count }

    /// `resumingAfter`: the stored watermark (nil on a first start).
    init(resumingAfter stored: UInt64? = nil) {
        lastHanded = stored
    }

    /// Event `seq` is about to be published as `messages` messages (0 when the layout sends
    /// nothing for it: it counts as acknowledged at once).
    mutating func handed(seq: UInt64, messages: Int) {
        if messages > 0 { outstanding[seq, default: 0] += messages }
        if lastHanded.map({ seq > $0 }) ?? true { lastHanded = seq }
    }

    /// `mosquitto_publish` gave message id `mid` to a message of event `seq` (nil: not an event).
    mutating func register(mid: Int32, seq: UInt64?) {
        if earlyAcks.remove(mid) != nil {
            settle(seq)
            return
        }
        midToSeq[mid] = seq
    }

    /// The broker acknowledged `mid` (PUBACK).
    mutating func acknowledged(mid: Int32) {
        guard let entry = midToSeq.removeValue(forKey: mid) else {
            // Not registered yet; bounded so stray acks (e.g. from a session before a restart
            // of this process) cannot grow it.
            if earlyAcks.count < 4096 { earlyAcks.insert(mid) }
            return
        }
        settle(entry)
    }

    /// A publication of event `seq` failed and will be replayed (see `rewind()`): it no longer
    /// holds the watermark back, but nothing above the watermark counts as handed.
    mutating func rewind() {
        let w = watermark
        outstanding.removeAll()
        lastHanded = w
    }

    /// Event `seq` was handed as some messages, and the last `unsent` of them never reached
    /// libmosquitto: they no longer hold the watermark back, and the event counts as not handed
    /// (the daemon is asked for it again).
    mutating func withdraw(seq: UInt64, unsent: Int) {
        if let left = outstanding[seq] {
            if left <= unsent { outstanding.removeValue(forKey: seq) } else { outstanding[seq] = left - unsent }
        }
        if let h = lastHanded, h >= seq { lastHanded = seq == 0 ? nil : seq - 1 }
    }

    private mutating func settle(_ seq: UInt64?) {
        guard let seq, let left = outstanding[seq] else { return }
        if left <= 1 { outstanding.removeValue(forKey: seq) } else { outstanding[seq] = left - 1 }
    }

    /// Highest sequence number with every message at or below it acknowledged; nil before any.
    var watermark: UInt64? {
        guard let lowest = outstanding.keys.min() else { return lastHanded }
        return lowest == 0 ? nil : lowest - 1
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HotColdCore
import HotColdProtocol

/// One daemon event as the bridge relays it: the protocol's own `EventMessage`, read with the
/// bridge's bounds. Its `line` (what the hotcold layout publishes) is the protocol's encoding
/// of what was decoded, not the line as read: JSONDecoder skips the values of fields it does
/// not decode without checking them (fuzzing passed `"x":7.632.395` through), and the brokers'
/// subscribers must only ever get well-formed JSON. The protocol's encoder (the daemon's too)
/// gives a real daemon's line back byte for byte; fields a newer daemon added are dropped.
///
/// `seq` is nil from a daemon older than protocol 1.1; such events are still published, but
/// nothing can be acknowledged or resumed (see `Bridge`).
///
/// ```swift
/// let e = try EventMessage(bridgeLine: #"{"class":"GPS","seq":7,"time":"2025-01-01T00:00:00.000Z","state":"fix"}"#)
/// e.sequence    // 7
/// ```
extension EventMessage {
    /// Longest line the bridge accepts from the daemon (the daemon's own request cap).
    static let maximumBridgeLineBytes = 64 * 1024

    public init(bridgeLine line: String) throws(WireError) {
        guard line.utf8.count <= Self.maximumBridgeLineBytes else {
            throw WireError("event line of \(line.utf8.count) bytes (over \(Self.maximumBridgeLineBytes))")
        }
        let message: EventMessage?
        do {
            message = try EventMessage.decode(line: line)
        } catch {
            throw WireError("\(error.message)")
        }
        guard let message else { throw WireError("not an engine event: class \(WireCoding.className(of: line) ?? "missing")") }
        if let n = message.seq, n < 0 { throw WireError("field seq: expected a whole number ≥ 0, got \(n)") }
        self = message
    }

    /// `seq` as the acknowledgement ledger counts (checked ≥ 0 when read).
    var sequence: UInt64? { seq.flatMap { UInt64(exactly: $0) } }
}

/// The `class` of a daemon line, read before deciding how to decode the rest.
enum LineClass {
    static func of(_ line: String) -> String? { WireCoding.className(of: line) }
}

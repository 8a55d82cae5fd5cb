import Foundation
import HotColdCore
import HotColdProtocol

/// One daemon event as the bridge relays it: the line (the hotcold layout publishes it), its
/// sequence number, and the decoded event.
///
/// `seq` is nil from a daemon older than protocol 1.1; such events are still published, but
/// nothing can be acknowledged or resumed (see `Bridge`).
///
/// ```swift
/// let e = try SequencedEvent(line: #"{"class":"GPS","seq":7,"time":"2025-01-01T00:00:00.000Z","state":"fix"}"#)
/// e.seq    // 7
/// ```
public struct SequencedEvent: Sendable, Equatable {
    public var line: String
    public var seq: UInt64?
    public var event: Event

    /// Longest line the bridge accepts from the daemon (the daemon's own request cap).
    public static let maximumLineBytes = 64 * 1024

    public init(line: String) throws(WireError) {
        guard line.utf8.count <= Self.maximumLineBytes else {
            throw WireError("event line of \(line.utf8.count) bytes (over \(Self.maximumLineBytes))")
        }
        let message: EventMessage?
        do {
            message = try EventMessage.decode(line: line)
        } catch {
            throw WireError("\(error.message)")
        }
        guard let message else { throw WireError("not an engine event: class \(WireCoding.className(of: line) ?? "missing")") }
        if let n = message.seq {
            guard let u = UInt64(exactly: n) else { throw WireError("field seq: expected a whole number ≥ 0, got \(n)") }
            seq = u
        } else {
            seq = nil
        }
        event = message.event
        // Published re-encoded, not as read: JSONDecoder skips the values of fields it does not
        // decode without checking them (fuzzing passed `"x":7.632.395` through), and the
        // brokers' subscribers must only ever get well-formed JSON. The protocol's encoder (the
        // daemon's too) gives a real daemon's line back byte for byte; fields a newer daemon
        // added are dropped.
        self.line = message.line
    }
}

/// The `class` of a daemon line, read before deciding how to decode the rest.
enum LineClass {
    static func of(_ line: String) -> String? { WireCoding.className(of: line) }
}

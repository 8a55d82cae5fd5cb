import Foundation
import HotColdCore

/// One daemon event as the bridge relays it: the line exactly as it came off the socket (the
/// hotcold layout publishes it verbatim), its sequence number, and the decoded event.
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
        do {
            event = try Event(jsonLine: line)
        } catch {
            throw WireError("\(error)")
        }
        let number: SeqField
        do {
            number = try JSONDecoder().decode(SeqField.self, from: Data(line.utf8))
        } catch {
            throw WireError("field seq: expected a whole number ≥ 0: \(error)")
        }
        self.seq = number.seq
        self.line = line
    }

    /// The wire `seq` alone; decoding into `UInt64` refuses negatives, fractions and overflow.
    private struct SeqField: Decodable { var seq: UInt64? }
}

/// The `class` of a daemon line, read before deciding how to decode the rest.
enum LineClass {
    static func of(_ line: String) -> String? {
        struct C: Decodable { var `class`: String }
        return try? JSONDecoder().decode(C.self, from: Data(line.utf8)).class
    }
}

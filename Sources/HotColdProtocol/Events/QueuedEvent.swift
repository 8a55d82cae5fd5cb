#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// QUEUED: the daemon queued something for the web API (a rating, a submission), so the
/// number of `pending` outbox items grew. Not an engine event (it is not in ``EventMessage``):
/// `hotcold-sync` watches for it to deliver within seconds instead of at its next interval.
///
/// ```json
/// {"class":"QUEUED","seq":812,"time":"2026-11-23T19:00:00.000Z","pending":1}
/// ```
public struct QueuedEvent: FixedClassMessage, SequencedMessage, Equatable {
    public static let wireClass = "QUEUED"
    public var seq: Int?
    /// The wall clock when it was queued (not the fix timeline: nothing about it is positional).
    public var time: Date
    public var pending: Int

    public init(seq: Int? = nil, time: Date, pending: Int) {
        self.seq = seq
        self.time = time
        self.pending = pending
    }

    /// Decodes a QUEUED line; nil when the line is of another class.
    public static func decode(line: some StringProtocol) throws(ProtocolError) -> QueuedEvent? {
        guard WireCoding.className(of: line) == wireClass else { return nil }
        return try WireCoding.decode(QueuedEvent.self, from: line)
    }
}

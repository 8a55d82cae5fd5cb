#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// GAP: events numbered `first_seq` through `seq` never reached the event log (its disk was
/// full, failing or stalled past the writer's queue). The daemon writes this marker into the
/// log where the missing lines would have been, and a `watch` with `since` that crosses the
/// hole sends it in order, so a subscriber knows exactly what it cannot get back instead of
/// taking the silence for "nothing happened". Live watchers never see it: they were sent those
/// events as they happened.
///
/// `seq` is the last missing number, so a client that remembers the last `seq` it read and
/// resumes with `since` moves past the hole. `lost` counts the missing events (numbers may be
/// skipped by a restart, so it can be less than the range).
///
/// ```json
/// {"class":"GAP","seq":2572,"first_seq":842,"lost":1731,"reason":"cannot write /var/log/hotcold/events.jsonl: No space left on device","time":"2026-11-25T19:00:00.000Z"}
/// ```
public struct GapEvent: FixedClassMessage, SequencedMessage, Equatable {
    public static let wireClass = "GAP"
    public var seq: Int?
    public var firstSeq: Int
    public var lost: Int
    public var reason: String
    /// The wall clock when the marker was written (when the log could be written again).
    var time: Date

    public init(seq: Int, firstSeq: Int, lost: Int, reason: String, time: Date) {
        self.seq = seq
        self.firstSeq = firstSeq
        self.lost = lost
        self.reason = reason
        self.time = time
    }

    /// Decodes a GAP line; nil when the line is of another class.
    public static func decode(line: some StringProtocol) throws(ProtocolError) -> GapEvent? {
        guard WireCoding.className(of: line) == wireClass else { return nil }
        return try WireCoding.decode(GapEvent.self, from: line)
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HotColdCore
import HotColdProtocol

/// An ARRIVED without its distance: what `…/arrival` holds when the user shares visits only
/// (`share = "visits"`, PROTOCOL.md). Its own type because it is its own shape (the event less
/// `distance_m`, which would tell how close the car came); written by the protocol's coder, so
/// it is the full ARRIVED's bytes with that one field left out.
///
/// ```json
/// {"class":"ARRIVED","seq":9,"target":{"id":"big-banana","kind":"bigthing","name":"Big Banana"},"time":"2026-11-25T07:25:04.000Z"}
/// ```
struct BareArrival: FixedClassMessage, SequencedMessage, Equatable {
    static let wireClass = Event.arrivedClass

    var seq: Int?
    var time: Date
    var target: TargetRef

    init(_ p: Event.Passage, seq: Int?) {
        self.seq = seq
        time = p.time
        target = p.target
    }

    /// The message's text (one JSON line, no newline).
    var payload: String { WireCoding.line(self) }
}

import Foundation
import HotColdSyncProtocol

/// The body of a 200/201 reply to an outbox delivery, checked here at the network's edge.
///
/// The contract promises a JSON object with an `id`, and for a rating the place's new catalogue
/// `rating` (0–5) and `votes` (a whole number). A body without an `id` is not that reply (a
/// proxy's page, say): the delivery is retried with the same key. A `rating` or `votes` out of
/// range or of the wrong type is dropped with a note, and the delivery still counts: the server
/// took the rating, and retrying would only fetch the same numbers again.
///
/// ```swift
/// let reply = try DeliveryReply(body: Data(#"{"id":"x","rating":4.2,"votes":9}"#.utf8))
/// reply.rating   // 4.2
/// ```
struct DeliveryReply {
    var rating: Double?
    var votes: Int?
    /// What was dropped and why ("rating 1e+300 is not 0–5").
    var dropped: [String] = []

    struct NotTheReply: Error {}

    init(body: Data) throws(NotTheReply) {
        guard let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any],
              let id = object["id"], !(id is NSNull) else { throw NotTheReply() }
        // Decoded field by field, so one bad number costs only itself.
        struct Rating: Decodable { var rating: Double? }
        struct Votes: Decodable { var votes: Int? }
        let decoder = JSONDecoder()
        if object["rating"] != nil {
            if let r = (try? decoder.decode(Rating.self, from: body))?.rating, r.isFinite, (0...5).contains(r) {
                rating = r
            } else {
                dropped.append("rating \(Self.shown(object["rating"])) is not a number from 0 to 5")
            }
        }
        if object["votes"] != nil {
            if let v = (try? decoder.decode(Votes.self, from: body))?.votes, (0...SyncWire.maxVotes).contains(v) {
                votes = v
            } else {
                dropped.append("votes \(Self.shown(object["votes"])) is not a whole number from 0 to \(SyncWire.maxVotes)")
            }
        }
    }

    private static func shown(_ value: Any?) -> String {
        guard let value else { return "null" }
        return String(String(describing: value).prefix(40))
    }
}

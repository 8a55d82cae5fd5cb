import Foundation
import HotColdProtocol

/// The body of a 200/201 reply to an outbox delivery, checked here at the network's edge.
///
/// The contract promises a JSON object with an `id`, and for a rating the place's new catalogue
/// `rating` (0–5) and `votes` (a whole number). A body without an `id` is not that reply (a
/// proxy's page, say): the delivery is retried with the same key. A `rating` or `votes` out of
/// range or of the wrong type is dropped with a note, and the delivery still counts: the server
/// took the rating, and retrying would only fetch the same numbers again.
///
/// ```swift
/// let reply = try JSONDecoder().decode(DeliveryReply.self, from: Data(#"{"id":"x","rating":4.2,"votes":9.5}"#.utf8))
/// reply.rating    // 4.2
/// reply.dropped   // ["votes 9.5 is not a whole number from 0 to 1000000000"]
/// ```
struct DeliveryReply: Decodable {
    var rating: Double?
    var votes: Int?
    /// What was dropped and why.
    var dropped: [String] = []

    private enum Key: String, CodingKey { case id, rating, votes }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        guard c.contains(.id), try !c.decodeNil(forKey: .id) else {
            throw DecodingError.keyNotFound(Key.id, .init(codingPath: [], debugDescription: "no id"))
        }
        // Field by field, so one bad number costs only itself.
        if c.contains(.rating) {
            if let r = try? c.decode(Double.self, forKey: .rating), r.isFinite, (0...5).contains(r) {
                rating = r
            } else {
                dropped.append("rating \(Self.shown(c, .rating)) is not a number from 0 to 5")
            }
        }
        if c.contains(.votes) {
            if let v = try? c.decode(Int.self, forKey: .votes), (0...SyncLimits.maxVotes).contains(v) {
                votes = v
            } else {
                dropped.append("votes \(Self.shown(c, .votes)) is not a whole number from 0 to \(SyncLimits.maxVotes)")
            }
        }
    }

    /// A refused value as the note names it: the number, or what kind of value it was.
    private static func shown(_ c: KeyedDecodingContainer<Key>, _ key: Key) -> String {
        if let d = try? c.decode(Double.self, forKey: key) { return "\(d)" }
        if let b = try? c.decode(Bool.self, forKey: key) { return "\(b)" }
        if (try? c.decodeNil(forKey: key)) == true { return "null" }
        return "(not a number)"
    }
}

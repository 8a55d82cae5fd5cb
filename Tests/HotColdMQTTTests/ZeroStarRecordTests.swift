import Foundation
import HotColdCore
@testable import HotColdMQTT
import HotColdProtocol
import HotColdDaemonTesting
import Testing

/// Issue 31: a 0-star rating is shared as 0 stars, both ways through the bridge.
@Suite(.offCooperativePool) struct ZeroStarRecordTests {
    let jane = FriendID(parsing: "jane/ute")!
    let now = ISO8601.parse("2026-11-25T10:00:00.000Z")!

    @Test func aZeroStarRecordBecomesAZeroStarFeedItemAndIsReadBack() throws {
        let record = RecordEvent(seq: 12, time: now, user: "jane",
                                 place: .init(id: "halans:d0577fb8cf", name: "Big Banana", kind: "bigthing"), rating: 0)
        let (seq, item) = try FriendEventLine.record(WireCoding.line(record), author: "jane", device: "ute")
        #expect(seq == 12)
        let shared = try #require(item)
        #expect(shared.rating == 0 && shared.kind == "record")
        let payload = WireCoding.line(shared)
        #expect(payload.contains(#""rating":0"#), "\(payload)")
        #expect(try FeedItem.fromBroker(Array(payload.utf8), who: jane, now: now)?.rating == 0)
        // No rating stays no rating.
        let noted = RecordEvent(seq: 13, time: now, user: "jane", place: record.place, note: "shut on Mondays")
        #expect(try FriendEventLine.record(WireCoding.line(noted), author: "jane", device: "ute").item?.rating == nil)
    }
}

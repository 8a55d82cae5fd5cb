import Foundation
import HotColdCore
import HotColdDaemon
import HotColdProtocol
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// The daemon's own events (gpsd lost, the outbox grew) are numbered and laid out like the
/// engine's, so the log's reader can replay them for `watch` with `since`.
@Suite(.offCooperativePool) struct PublishedEventTests {
    static let when = ISO8601.parse("2026-11-23T19:00:00.000Z")!

    @Test func queuedCarriesItsNumberRightAfterItsClass() throws {
        let line = PublishedEvent.queued(QueuedEvent(time: Self.when, pending: 3)).line(seq: 812)
        #expect(line == #"{"class":"QUEUED","seq":812,"pending":3,"time":"2026-11-23T19:00:00.000Z"}"#)
        #expect(PublishedLineHeader(utf8: Array(line.utf8)) == PublishedLineHeader(className: "QUEUED", seq: 812))
        #expect(try QueuedEvent.decode(line: line) == QueuedEvent(seq: 812, time: Self.when, pending: 3))
        let lost = PublishedEvent.engine(.gps(.init(time: Self.when, state: .lost, reason: "gone"))).line(seq: 813)
        #expect(lost == #"{"class":"GPS","seq":813,"reason":"gone","state":"lost","time":"2026-11-23T19:00:00.000Z"}"#)
        #expect(try JSONSchemaCheck.failures([line, lost], schema: "event.schema.json") == "")
    }

    /// Every numbered class reads back through the log's header scanner: a class it cannot
    /// read (before: FOLLOWING_CHANGED and LIKE_RECEIVED, for their `_`) is never replayed to a
    /// `watch` with `since`, nor counted as the log's last number at start.
    @Test func everyNumberedClassIsReadBackByTheHeaderScanner() throws {
        let place = FeedItem.Place(id: "halans:d0577fb8cf", name: "Big Banana", kind: "bigthing")
        let item = FeedItem(author: "jane", device: "ute", seq: 3, time: Self.when, kind: "arrived", place: place)
        let events: [PublishedEvent] = [
            .engine(.gps(.init(time: Self.when, state: .fix))),
            .queued(QueuedEvent(time: Self.when, pending: 1)),
            .feed(FeedEvent(time: Self.when, item: item)),
            .like(LikeEvent(time: Self.when, item: "jane/ute/3", like: true, user: "alice")),
            .record(RecordEvent(time: Self.when, user: "alice", place: place, rating: 4)),
            .followingChanged(FollowingChangedEvent(time: Self.when, version: 2)),
            .likeReceived(LikeReceivedEvent(time: Self.when, item: "self/self/3", liker: "bob/car", like: true)),
        ]
        for (i, e) in events.enumerated() {
            let line = e.line(seq: 900 + i)
            let cls = try #require(WireCoding.className(of: line))
            #expect(PublishedLineHeader(utf8: Array(line.utf8)) == PublishedLineHeader(className: cls, seq: 900 + i), "\(line)")
        }
        for bad in [#"{"class":"_X","seq":1}"#, #"{"class":"9X","seq":1}"#, #"{"class":"like","seq":1}"#, #"{"class":"","seq":1}"#] {
            #expect(PublishedLineHeader(utf8: Array(bad.utf8)) == nil, "\(bad)")
        }
    }

    @Test func queuedGoesOnlyToThoseWatchingForIt() {
        let filter = PublishedEvent.queued(QueuedEvent(time: Self.when, pending: 1)).filter
        #expect(filter == .watchers(className: "QUEUED", targetID: nil))
    }
}

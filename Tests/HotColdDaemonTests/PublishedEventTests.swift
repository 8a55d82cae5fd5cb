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

    @Test func queuedGoesOnlyToThoseWatchingForIt() {
        let filter = PublishedEvent.queued(QueuedEvent(time: Self.when, pending: 1)).filter
        #expect(filter == .watchers(className: "QUEUED", targetID: nil))
    }
}

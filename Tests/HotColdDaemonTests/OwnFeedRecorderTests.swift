import Foundation
import HotColdCore
import HotColdProtocol
import HotColdStore
import HotColdTestSupport
import Logging
import HotColdDaemonTesting
import Testing
@testable import HotColdDaemon

/// This car's own finds kept in its feed by their event numbers, off the output stage's path:
/// a database held locked by another program delays them, never the publisher, and beyond
/// the bound they are dropped and counted.
@Suite(.offCooperativePool, .serialized) struct OwnFeedRecorderTests {
    let t0 = Date(timeIntervalSince1970: 1_764_000_000)
    let banana = TargetRef(id: "halans:d0577fb8cf", name: "Big Banana", kind: .bigThing)

    @Test func arrivalsAndRecordsBecomeOwnItemsByTheirSeq() throws {
        let dir = try TemporaryDirectory("hotcold-ownfeed"); defer { dir.remove() }
        let store = try Store.open(path: dir.path("hc.sqlite"))
        let r = OwnFeedRecorder(store: store, logger: Logger(label: "test"))
        r.published(.engine(.arrived(.init(time: t0, target: banana, distance: 40))), seq: 41)
        r.published(.engine(.arrived(.init(time: t0, target: TargetRef(id: "friend:jane/ute", name: "Jane", kind: .friend), distance: 40))), seq: 42)
        r.published(.engine(.proximity(.init(time: t0, target: banana, distance: 40, bearing: 0, tier: 7, tierName: "burning", trend: .steady))), seq: 43)
        r.published(.record(RecordEvent(time: t0, user: "alice", place: .init(id: banana.id, name: banana.name, kind: "bigthing"), rating: 5, note: "Yes")), seq: 44)
        r.drain()
        let items = try store.feed(user: "alice", world: true, limit: 10, before: nil).map(\.item)
        #expect(items.map(\.seq).sorted() == [41, 44], "a meeting with a friend is no find of ours")
        #expect(items.allSatisfy { $0.author == "self" && $0.device == "self" })
        #expect(items.first { $0.seq == 44 }.map { $0.kind == "record" && $0.rating == 5 && $0.note == "Yes" } == true)
        // The same event again (a replay) is no second item.
        r.published(.engine(.arrived(.init(time: t0, target: banana, distance: 40))), seq: 41)
        r.drain()
        #expect(try store.feed(user: "alice", world: true, limit: 10, before: nil).count == 2)
    }

    @Test func aLockedDatabaseNeverHoldsThePublisherAndTheBoundIsKept() throws {
        let dir = try TemporaryDirectory("hotcold-ownfeed"); defer { dir.remove() }
        let path = dir.path("hc.sqlite")
        let store = try Store.open(path: path)
        let r = OwnFeedRecorder(store: store, maxPending: 3, logger: Logger(label: "test"))
        let lock = try SQLiteLockHolder(database: path)
        let started = ContinuousClock.now
        for seq in 1...10 { r.published(.engine(.arrived(.init(time: t0.addingTimeInterval(Double(seq)), target: banana, distance: 40))), seq: seq) }
        // Waiting for the database would take its 5 s busy timeout.
        #expect(ContinuousClock.now - started < .seconds(2), "the publisher only queues")
        #expect(r.dropped == 7)
        usleep(500_000)
        lock.release()
        r.drain()
        #expect(try store.feed(user: "a", world: true, limit: 20, before: nil).map(\.item.seq) == [3, 2, 1])
    }
}

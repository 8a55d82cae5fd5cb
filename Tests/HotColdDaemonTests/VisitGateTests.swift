import Foundation
import HotColdCore
import HotColdStore
import HotColdTestSupport
import Logging
import Synchronization
import HotColdDaemonTesting
import Testing
@testable import HotColdDaemon

/// Visits off the engine's path: a real SQLite file, locked by a real `sqlite3` process.
@Suite(.offCooperativePool, .serialized) struct VisitGateTests {
    final class Collector: EventSink {
        let events = Mutex<[PublishedEvent]>([])
        func publish(_ event: PublishedEvent) { events.withLock { $0.append(event) } }
        var classes: [String] {
            events.withLock { $0.map { e in
                guard case .engine(let x) = e else { return "GPS" }
                return x.className + ":" + (x.target?.id ?? "-")
            } }
        }
    }

    let banana = TargetRef(id: "halans:d0577fb8cf", name: "Big Banana", kind: .bigThing)
    let point = TargetRef(id: "point:1", name: "Roadside", kind: .point)
    let t0 = Date(timeIntervalSince1970: 1_735_689_600)

    func proximity(_ t: TargetRef, _ dt: Double) -> Event {
        .proximity(.init(time: t0.addingTimeInterval(dt), target: t, distance: 50, bearing: 0, tier: 7,
                         tierName: "burning", trend: .steady))
    }

    @Test func aLockedDatabaseHoldsOnlyThatTargetsPassagesAndStoresTheVisitOnce() throws {
        guard SQLiteLockHolder.available else {
            Issue.record("sqlite3 is not installed (scripts/setup installs it)")
            return
        }
        let dir = try TemporaryDirectory("hotcold-gate"); defer { dir.remove() }
        let path = dir.path("hc.sqlite")
        let store = try Store.open(path: path)
        try store.importFile(at: TestData.url("bigthings/bigthings.json"), user: "tester")
        let capture = LogCapture()
        let sink = Collector()
        var limits = VisitRecorder.Limits()
        limits.firstRetry = .milliseconds(50)
        limits.maxRetry = .milliseconds(200)
        let gate = EventGate(sink: sink, places: StorePlaceRecords(store: store), user: "tester",
                             limits: limits, logger: capture.logger)
        // The recorder's loop on a thread of its own, as VisitRecorderService runs it.
        if let recorder = gate.recorder { Thread { recorder.run() }.start() }
        defer { gate.recorder?.stop(grace: .zero) }

        let lock = try SQLiteLockHolder(database: path)
        let clock = ContinuousClock()
        let started = clock.now
        gate.submit([
            .arrived(.init(time: t0, target: banana, distance: 60)),
            proximity(banana, 1),
            .departed(.init(time: t0.addingTimeInterval(2), target: banana, distance: 160)),
            .gps(.init(time: t0.addingTimeInterval(3), state: .stale)),
            .arrived(.init(time: t0.addingTimeInterval(4), target: point, distance: 10)),
        ])
        // submit never waits for the database.
        #expect(clock.now - started < .seconds(1))
        #expect(sink.classes == ["PROXIMITY:halans:d0577fb8cf", "GPS:-", "ARRIVED:point:1"])
        #expect(gate.heldCount == 2)
        // At least one attempt met the lock (the store waits its 5 s busy timeout each time).
        #expect(eventually(.seconds(30)) { (gate.recorder?.status.retries ?? 0) >= 1 })
        let failing = gate.recorder!.status
        #expect(failing.pending == 2 && failing.error?.contains("halans:d0577fb8cf") == true)
        #expect(sink.classes.count == 3)

        lock.release()
        #expect(eventually(.seconds(30)) { sink.classes.count == 5 })
        #expect(sink.classes.suffix(2) == ["ARRIVED:halans:d0577fb8cf", "DEPARTED:halans:d0577fb8cf"])
        let status = gate.recorder!.status
        #expect(status.pending == 0 && status.stored == 2 && status.error == nil && gate.heldCount == 0)
        let visits = try store.userState(placeID: banana.id, user: "tester").visits
        #expect(visits.count == 1)
        #expect(visits.first?.visitedAt == t0 && visits.first?.departedAt == t0.addingTimeInterval(2))
        // Reported once when it began and once when it ended, not per retry.
        let messages = capture.messages.withLock { $0 }
        #expect(messages.filter { $0.0 == .error }.count == 1, "\(messages)")
        #expect(messages.filter { $0.0 == .notice }.count == 1, "\(messages)")
    }

    @Test func aPlaceThatIsGoneIsGivenUpAndItsEventStillLeaves() throws {
        let dir = try TemporaryDirectory("hotcold-gate"); defer { dir.remove() }
        let store = try Store.open(path: dir.path("hc.sqlite"))
        let sink = Collector()
        var limits = VisitRecorder.Limits()
        limits.firstRetry = .milliseconds(1)
        limits.maxRetry = .milliseconds(5)
        let gate = EventGate(sink: sink, places: StorePlaceRecords(store: store), user: "tester",
                             limits: limits, logger: LogCapture().logger)
        // The recorder's loop on a thread of its own, as VisitRecorderService runs it.
        if let recorder = gate.recorder { Thread { recorder.run() }.start() }
        defer { gate.recorder?.stop(grace: .zero) }
        gate.submit([.arrived(.init(time: t0, target: banana, distance: 60))])
        #expect(eventually { sink.classes == ["ARRIVED:halans:d0577fb8cf"] })
        #expect(gate.recorder?.status.failed == 1)
    }

    @Test func aFullQueueDropsTheVisitButKeepsTheOrder() throws {
        let dir = try TemporaryDirectory("hotcold-gate"); defer { dir.remove() }
        let path = dir.path("hc.sqlite")
        let store = try Store.open(path: path)
        try store.importFile(at: TestData.url("bigthings/bigthings.json"), user: "tester")
        let sink = Collector()
        var limits = VisitRecorder.Limits()
        limits.capacity = 1
        let gate = EventGate(sink: sink, places: StorePlaceRecords(store: store), user: "tester",
                             limits: limits, logger: LogCapture().logger)
        // The recorder's loop on a thread of its own, as VisitRecorderService runs it.
        if let recorder = gate.recorder { Thread { recorder.run() }.start() }
        defer { gate.recorder?.stop(grace: .zero) }
        let lock = try SQLiteLockHolder(database: path)
        gate.submit([
            .arrived(.init(time: t0, target: banana, distance: 60)),
            .departed(.init(time: t0.addingTimeInterval(2), target: banana, distance: 160)),
        ])
        // The departure found no room: counted, and it still waits behind the arrival.
        #expect(gate.recorder?.status.dropped == 1)
        #expect(sink.classes.isEmpty && gate.heldCount == 2)
        lock.release()
        #expect(eventually(.seconds(30)) { sink.classes == ["ARRIVED:halans:d0577fb8cf", "DEPARTED:halans:d0577fb8cf"] })
    }

    /// Issue 29: a meet-up is no visit. The gate and the engine host agree (`recordsVisits`):
    /// a friend's ARRIVED and DEPARTED leave at once, nothing is queued for the database,
    /// nothing fails and nothing is logged at error level.
    @Test func aFriendMetOnTheRoadIsNeverHeldAndNoVisitIsAttempted() throws {
        let dir = try TemporaryDirectory("hotcold-gate"); defer { dir.remove() }
        let store = try Store.open(path: dir.path("hc.sqlite"))
        let sink = Collector()
        let capture = LogCapture()
        let gate = EventGate(sink: sink, places: StorePlaceRecords(store: store), user: "tester", logger: capture.logger)
        if let recorder = gate.recorder { Thread { recorder.run() }.start() }
        defer { gate.recorder?.stop(grace: .zero) }
        let friend = TargetRef(id: "friend:ann/ute", name: "Ann", kind: .friend)
        #expect(!gate.recordsVisits(for: friend))
        gate.submit([
            .arrived(.init(time: t0, target: friend, distance: 40)),
            .departed(.init(time: t0.addingTimeInterval(60), target: friend, distance: 170)),
        ])
        // Published in the same call, before any database work could have happened.
        #expect(sink.classes == ["ARRIVED:friend:ann/ute", "DEPARTED:friend:ann/ute"])
        #expect(gate.heldCount == 0)
        let status = try #require(gate.recorder?.status)
        #expect(status.pending == 0 && status.failed == 0 && status.retries == 0 && status.stored == 0)
        #expect(capture.messages.withLock { $0 }.filter { $0.0 >= .error }.isEmpty)
    }
}

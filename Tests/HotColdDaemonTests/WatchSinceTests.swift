import Foundation
import Glibc
import HotColdCore
@testable import HotColdProtocol
import HotColdTestSupport
import Logging
import Synchronization
import HotColdDaemonTesting
import Testing
@testable import HotColdDaemon

/// `watch` with `since` through the daemon's real command handler, socket, log and sequence:
/// replay from the log, then live, with no gap and no duplicate while events keep coming.
@Suite(.offCooperativePool, .serialized) struct WatchSinceTests {
    /// A publisher wired as the daemon wires it, on a real socket, log and sequence file.
    final class Rig: @unchecked Sendable {
        let dir: TemporaryDirectory
        let server: SocketServer
        let publisher: EventPublisher
        let log: EventLog
        let writer: LogWriter
        private let writerDone = DispatchSemaphore(value: 0)
        let host: EngineHost
        let socketPath: String
        var logPath: String { log.path }

        init(limits: CatchUpLimits = CatchUpLimits()) throws {
            let quiet = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
            dir = try TemporaryDirectory("hotcold-since")
            socketPath = dir.path("hc.sock")
            var options = SocketServerOptions()
            options.logger = quiet
            server = try SocketServer(endpoint: .path(socketPath, mode: 0o600), options: options)
            log = EventLog(path: dir.path("events.jsonl"), logger: quiet)
            writer = LogWriter(log: log, logger: quiet)
            // The log's writer on its own thread, as LogWriterService runs it in the daemon.
            Thread { [writer, writerDone] in
                writer.run()
                writerDone.signal()
            }.start()
            publisher = EventPublisher(socket: server, log: writer,
                                       sequence: EventSequence(path: dir.path("event-seq"), logger: quiet),
                                       limits: limits, logger: quiet)
            host = EngineHost(engine: ProximityEngine(targets: [], mode: .hunt),
                              tracking: .hunt, sink: publisher,
                              places: nil, arrivalUser: "tester", logger: quiet)
            let commands = DaemonCommands(host: host, server: server, authorisation: PeerAuthorisation(),
                                          logger: quiet, status: { .init(logStatus: nil, configPath: nil) })
            try server.start(handler: commands)
        }

        deinit {
            writer.finish()
            _ = writerDone.wait(timeout: .now() + 5)
            server.shutdown()
            dir.remove()
        }

        func publish(_ n: Int, arrivedEvery k: Int = 0) {
            let t = TargetRef(id: "halans:d0577fb8cf", name: "Big Banana", kind: .bigThing)
            for i in 0..<n {
                let time = Date(timeIntervalSince1970: 1_735_689_600 + Double(i))
                if k > 0, i % k == 0 {
                    publisher.publish(.engine(.arrived(.init(time: time, target: t, distance: 50))))
                } else {
                    publisher.publish(.engine(.gps(.init(time: time, state: .fix))))
                }
            }
        }

        /// Waits until the writer has put everything queued in the file.
        func settle() {
            for _ in 0..<1000 where (writer.status?.queued ?? 0) > 0 { usleep(2000) }
        }

        func client() throws -> LineClient {
            let c = try LineClient(path: socketPath)
            _ = try c.read(class: "VERSION")
            return c
        }
    }

    static func seq(_ line: String) -> Int? { PublishedLineHeader(utf8: Array(line.utf8))?.seq }

    @Test func replayThenLiveWithoutGapOrDuplicateWhileEventsKeepComing() throws {
        let rig = try Rig()
        rig.publish(3000)
        let c = try rig.client()
        // Events keep being published while the client catches up and after.
        let done = Atomic<Bool>(false)
        let writer = Thread {
            for _ in 0..<100 {
                rig.publish(40)
                usleep(1000)
            }
            done.store(true, ordering: .releasing)
        }
        writer.start()
        try c.send(#"{"cmd":"watch","since":1000}"#)
        let reply = try c.read(class: "WATCH", timeout: 20)
        #expect(reply["since"] as? Int == 1000)
        #expect(reply["since_gap"] == nil)
        #expect((reply["replay"] as? Int ?? 0) >= 2000)
        var expected = 1001
        var problems: [String] = []
        while expected <= 7000 {
            guard let line = c.nextLine(timeout: .seconds(20)) else { problems.append("stopped at \(expected)"); break }
            guard let s = Self.seq(line) else { problems.append("not an event: \(line)"); continue }
            if s != expected { problems.append("got \(s), wanted \(expected)") }
            expected = s + 1
            if problems.count > 5 { break }
        }
        #expect(problems.isEmpty, "\(problems)")
        #expect(eventually { done.load(ordering: .acquiring) })
        // Nothing more than what was published: the stream is live and exact.
        #expect(c.nextLine(timeout: .milliseconds(200)) == nil)
        #expect(rig.publisher.catchingUp == 0)
    }

    /// The friends' classes whose names have an underscore are replayed like any other (the
    /// log's header scanner once skipped them: a page or bridge catching up never saw them).
    @Test func friendsEventsAreReplayedWhateverTheirClassName() throws {
        let rig = try Rig()
        let when = Date(timeIntervalSince1970: 1_795_600_800)
        rig.publish(2)
        rig.publisher.publish(.followingChanged(FollowingChangedEvent(time: when, version: 7)))
        rig.publisher.publish(.likeReceived(LikeReceivedEvent(time: when, item: "self/self/3", liker: "bob/car", like: true)))
        rig.publish(1)
        rig.settle()
        let c = try rig.client()
        try c.send(#"{"cmd":"watch","since":0}"#)
        let reply = try c.read(class: "WATCH")
        #expect(reply["replay"] as? Int == 5, "\(reply)")
        var classes: [String] = []
        for _ in 0..<5 {
            guard let line = c.nextLine(timeout: .seconds(30)) else { break }
            classes.append(WireCoding.className(of: line) ?? line)
        }
        #expect(classes == ["GPS", "GPS", "FOLLOWING_CHANGED", "LIKE_RECEIVED", "GPS"])
        // And the log's last number is the LIKE_RECEIVED's when it is the last line.
        rig.publisher.publish(.likeReceived(LikeReceivedEvent(time: when, item: "self/self/3", liker: "bob/car", like: false)))
        rig.settle()
        #expect(EventLogReader().lastSequence(path: rig.logPath) == 6)
    }

    @Test func rotatedLogIsReadAndAGapIsReported() throws {
        let rig = try Rig()
        rig.publish(100)
        rig.settle()
        // logrotate: move the file, then SIGHUP reopens the path.
        #expect(rename(rig.logPath, rig.logPath + ".1") == 0)
        rig.writer.requestReopen()
        rig.publish(100)
        rig.settle()
        let c = try rig.client()
        try c.send(#"{"cmd":"watch","since":50}"#)
        let reply = try c.read(class: "WATCH")
        #expect(reply["since_gap"] == nil && reply["replay"] as? Int == 150)
        let first = try c.readLine()
        #expect(first.flatMap(Self.seq) == 51)

        // The older file rotated away: the reply says so and where the log starts now.
        #expect(unlink(rig.logPath + ".1") == 0)
        let d = try rig.client()
        try d.send(#"{"cmd":"watch","since":50,"classes":["GPS"]}"#)
        let gap = try d.read(class: "WATCH")
        #expect(gap["since_gap"] as? Int == 101)
        #expect(gap["replay"] as? Int == 100)
        #expect(try d.readLine().flatMap(Self.seq) == 101)
    }

    @Test func filtersApplyToTheReplay() throws {
        let rig = try Rig()
        rig.publish(100, arrivedEvery: 10)
        let c = try rig.client()
        try c.send(#"{"cmd":"watch","since":0,"classes":["ARRIVED"],"targets":["halans:d0577fb8cf"]}"#)
        let reply = try c.read(class: "WATCH")
        #expect(reply["replay"] as? Int == 10 && reply["since_gap"] == nil)
        var seqs: [Int] = []
        for _ in 0..<10 { if let l = try c.readLine(), l.contains("\"ARRIVED\"") { seqs.append(Self.seq(l) ?? -1) } }
        #expect(seqs == stride(from: 1, to: 100, by: 10).map { $0 })
        // Another target's filter replays nothing.
        let d = try rig.client()
        try d.send(#"{"cmd":"watch","since":0,"classes":["ARRIVED"],"targets":["GC2T9RW"]}"#)
        #expect(try d.read(class: "WATCH")["replay"] as? Int == 0)
    }

    @Test func badSinceValuesAreRefusedByName() throws {
        let rig = try Rig()
        let c = try rig.client()
        for bad in [#"-1"#, #"1.5"#, #""7""#, #"1e300"#, #"true"#] {
            try c.send(#"{"cmd":"watch","since":\#(bad)}"#)
            let e = try c.read(class: "ERROR")
            #expect((e["message"] as? String)?.contains("since") == true, "\(bad): \(e)")
        }
        // A number above anything published replays nothing and goes live.
        try c.send(#"{"cmd":"watch","since":999999}"#)
        let w = try c.read(class: "WATCH")
        #expect(w["replay"] as? Int == 0 && w["since_gap"] == nil)
        rig.publish(1)
        #expect(try c.readLine().flatMap(Self.seq) == 1)
    }

    @Test func aClientThatFallsTooFarBehindDuringTheReplayIsToldToComeBack() throws {
        var limits = CatchUpLimits()
        limits.maxBufferedLines = 50
        limits.stallTimeout = .seconds(60)
        let rig = try Rig(limits: limits)
        rig.publish(5000)
        // A small receive buffer and no reading: the replay waits, live events pile up.
        let c = try LineClient(path: rig.socketPath, receiveBuffer: 4096)
        try c.send(#"{"cmd":"watch","since":0}"#)
        #expect(eventually { rig.publisher.catchingUp == 1 })
        rig.publish(60)
        let lines = c.readToEnd(timeout: .seconds(30))
        #expect(lines.last?.contains("reconnect with since") == true, "\(lines.suffix(2))")
        #expect(rig.publisher.catchingUp == 0)
    }
}

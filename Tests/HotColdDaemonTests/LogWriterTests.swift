import Foundation
import Glibc
import HotColdCore
import HotColdProtocol
import HotColdTestSupport
import Logging
import Synchronization
import HotColdDaemonTesting
import Testing
@testable import HotColdDaemon

/// The log's writer against a real full disk (a tmpfs of a few pages): no torn line ever stays
/// in the file, lines wait while the disk is full and are written once space returns, lines
/// beyond the queue's bound leave a GAP marker naming exactly the missing numbers, and a
/// `watch` with `since` across the hole sends that marker in order.
@Suite(.offCooperativePool, .serialized) struct LogWriterTests {
    let quiet = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

    init() {
        // As hotcoldd does: a write to a pipe or socket whose reader left is an error, not a signal.
        signal(SIGPIPE, SIG_IGN)
    }

    /// A small filesystem of its own (root only: `mount -t tmpfs`).
    final class SmallDisk {
        let dir: TemporaryDirectory
        let mountPoint: String
        init(bytes: Int) throws {
            dir = try TemporaryDirectory("hotcold-small-disk")
            mountPoint = dir.path("mnt")
            try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
            let r = try Subprocess.run(URL(fileURLWithPath: "/bin/mount"), ["-t", "tmpfs", "-o", "size=\(bytes)", "tmpfs", mountPoint])
            guard r.status == 0 else { throw TestFailure("mount tmpfs: \(r.stderr)") }
        }
        func path(_ name: String) -> String { mountPoint + "/" + name }
        /// Fills every free byte with a file of its own.
        func fill() {
            let fd = open(path("filler"), O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            let block = [UInt8](repeating: 0x2e, count: 512)
            while block.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) > 0 {}
            close(fd)
        }
        func free() { unlink(path("filler")) }
        deinit {
            _ = try? Subprocess.run(URL(fileURLWithPath: "/bin/umount"), ["-l", mountPoint])
            dir.remove()
        }
    }

    @Test(.enabled(if: getuid() == 0, "mounts a tmpfs"))
    func aFullDiskKeepsNoTornLineAndMarksWhatItGaveUp() throws {
        let disk = try SmallDisk(bytes: 128 << 10)
        let dir = try TemporaryDirectory("hotcold-full-log"); defer { dir.remove() }
        let server = try SocketServer(endpoint: .path(dir.path("hc.sock"), mode: 0o600))
        defer { server.shutdown() }
        let log = EventLog(path: disk.path("events.jsonl"), logger: quiet)
        var limits = LogWriter.Limits()
        limits.maxQueuedLines = 150
        limits.retryInterval = .milliseconds(20)
        let writer = LogWriter(log: log, limits: limits, logger: quiet)
        let done = DispatchSemaphore(value: 0)
        Thread { writer.run(); done.signal() }.start()
        defer { writer.finish(); _ = done.wait(timeout: .now() + 5) }
        let publisher = EventPublisher(socket: server, log: writer,
                                       sequence: EventSequence(path: dir.path("event-seq"), logger: quiet), logger: quiet)
        let host = EngineHost(engine: ProximityEngine(targets: [], mode: .hunt), tracking: .hunt, sink: publisher,
                              places: nil, arrivalUser: "tester", logger: quiet)
        try server.start(handler: DaemonCommands(host: host, server: server, authorisation: PeerAuthorisation(),
                                                 logger: quiet, status: { .init(logStatus: writer.status, configPath: nil) }))

        let target = TargetRef(id: "halans:d0577fb8cf", name: "Big Banana", kind: .bigThing)
        func publish(_ range: Range<Int>) {
            for i in range {
                let t = Date(timeIntervalSince1970: 1_735_689_600 + Double(i))
                publisher.publish(.engine(.proximity(.init(time: t, target: target, distance: 1000 - Double(i), bearing: 12,
                                                           tier: 4, tierName: "mild", trend: .hotter))))
            }
        }
        publish(0..<20)
        #expect(eventually { writer.status?.linesWritten == 20 })
        disk.fill()
        // The disk is full: a line that starts in the last page's room ends short, is cut off
        // again, and waits with the rest; beyond 150 waiting, the newest are given up.
        publish(20..<400)
        #expect(eventually { (writer.status?.dropped ?? 0) > 0 && writer.status?.error != nil })
        let during = try String(contentsOfFile: disk.path("events.jsonl"), encoding: .utf8)
        #expect(during.hasSuffix("\n") && during.split(separator: "\n").allSatisfy { $0.hasSuffix("}") },
                "no fragment in the file while the disk is full")
        disk.free()
        #expect(eventually { writer.status?.queued == 0 && writer.status?.error == nil }, "\(String(describing: writer.status))")
        publish(400..<420)
        #expect(eventually { writer.status.map { $0.queued == 0 && $0.linesWritten + $0.dropped == 420 } == true },
                "\(String(describing: writer.status))")

        let lines = try String(contentsOfFile: disk.path("events.jsonl"), encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.allSatisfy { LineClient.object($0) != nil }, "every line is a whole JSON object")
        let seqs = lines.compactMap { LineClient.object($0)?["seq"] as? Int }
        #expect(seqs == seqs.sorted() && Set(seqs).count == seqs.count)
        let gaps = lines.compactMap { try? GapEvent.decode(line: $0) }
        try #require(!gaps.isEmpty)
        let logged = Set(lines.compactMap { l -> Int? in
            guard let o = LineClient.object(l), o["class"] as? String == "PROXIMITY" else { return nil }
            return o["seq"] as? Int
        })
        let missing = Set(1...420).subtracting(logged)
        let marked = gaps.reduce(into: Set<Int>()) { $0.formUnion($1.firstSeq...$1.seq!) }
        #expect(missing == marked, "the GAP lines name exactly the numbers not in the log")
        #expect(gaps.reduce(0) { $0 + $1.lost } == missing.count && writer.status?.dropped == missing.count)
        #expect(writer.status?.gaps == gaps.count)
        // Why: the disk's own error once the writer has met it, else that the disk fell behind.
        #expect(gaps.allSatisfy { $0.reason.contains("No space left on device") || $0.reason.contains("did not keep up") },
                "\(gaps.map(\.reason))")
        #expect(logged.count == writer.status?.linesWritten && logged.count >= 190, "what waited for the disk was written: \(logged.count)")

        // A replay across the holes sends the file's lines, GAP lines included, in order.
        let c = try LineClient(path: dir.path("hc.sock"))
        _ = try c.read(class: "VERSION")
        try c.send(#"{"cmd":"watch","since":0}"#)
        let reply = try c.read(class: "WATCH")
        // … and says the replay is whole only after the last hole (protocol 1.8).
        #expect(reply["since_gap"] as? Int == gaps.compactMap(\.seq).max().map { $0 + 1 })
        var replayed: [String] = []
        while replayed.count < lines.count, let l = try c.readLine(timeout: 30) { replayed.append(l) }
        func shape(_ ls: [String]) -> [String] {
            ls.map { l in LineClient.object(l).map { "\($0["class"] ?? "?")#\($0["seq"] ?? "?")" } ?? "?" }
        }
        #expect(shape(replayed) == shape(lines))
    }

    @Test func lineNotYetWrittenAreReplayedFromTheQueue() throws {
        // A FIFO nobody reads: the writer cannot even open it, so everything stays queued.
        let dir = try TemporaryDirectory("hotcold-queued-log"); defer { dir.remove() }
        #expect(mkfifo(dir.path("events.fifo"), 0o600) == 0)
        let server = try SocketServer(endpoint: .path(dir.path("hc.sock"), mode: 0o600))
        defer { server.shutdown() }
        var limits = LogWriter.Limits()
        limits.retryInterval = .milliseconds(20)
        let writer = LogWriter(log: EventLog(path: dir.path("events.fifo"), logger: quiet), limits: limits, logger: quiet)
        let done = DispatchSemaphore(value: 0)
        Thread { writer.run(); done.signal() }.start()
        defer { writer.finish(grace: .milliseconds(100)); _ = done.wait(timeout: .now() + 5) }
        let publisher = EventPublisher(socket: server, log: writer,
                                       sequence: EventSequence(path: dir.path("event-seq"), logger: quiet), logger: quiet)
        let host = EngineHost(engine: ProximityEngine(targets: [], mode: .hunt), tracking: .hunt, sink: publisher,
                              places: nil, arrivalUser: "tester", logger: quiet)
        try server.start(handler: DaemonCommands(host: host, server: server, authorisation: PeerAuthorisation(),
                                                 logger: quiet, status: { .init(logStatus: nil, configPath: nil) }))
        for i in 0..<50 {
            publisher.publish(.engine(.gps(.init(time: Date(timeIntervalSince1970: 1_735_689_600 + Double(i)), state: .fix))))
        }
        #expect(writer.status?.queued == 50 && writer.status?.error?.contains("no process is reading") == true,
                "\(String(describing: writer.status))")
        let c = try LineClient(path: dir.path("hc.sock"))
        _ = try c.read(class: "VERSION")
        try c.send(#"{"cmd":"watch","since":10}"#)
        let reply = try c.read(class: "WATCH")
        #expect(reply["since_gap"] == nil && reply["replay"] as? Int == 40)
        var seqs: [Int] = []
        while seqs.count < 40, let l = try c.readLine(timeout: 30) {
            if let s = LineClient.object(l)?["seq"] as? Int { seqs.append(s) }
        }
        #expect(seqs == Array(11...50))
    }
}

/// The log is synced in groups (flash wears) and at once after what a user is told about a
/// place; nothing is synced while nothing is logged.
@Suite(.offCooperativePool) struct LogSyncTests {
    static func waitFor(_ what: String, _ condition: () -> Bool) {
        let deadline = ContinuousClock.now + .seconds(30)
        while !condition() {
            guard ContinuousClock.now < deadline else { Issue.record("timed out waiting for \(what)"); return }
            usleep(5_000)
        }
    }

    @Test func ordinaryLinesShareASyncAndUrgentOnesAreSyncedAtOnce() throws {
        let dir = try TemporaryDirectory("log-sync")
        defer { dir.remove() }
        var limits = LogWriter.Limits()
        // Long enough that the group below cannot be synced by the timer before the urgent line.
        limits.syncInterval = .seconds(3600)
        let writer = LogWriter(log: EventLog(path: dir.path("events.jsonl")), limits: limits, logger: .init(label: "t"))
        let done = DispatchSemaphore(value: 0)
        Thread { writer.run(); done.signal() }.start()
        defer { writer.finish(); done.wait() }

        for seq in 1...100 { writer.enqueue(seq: seq, line: #"{"class":"PROXIMITY","seq":\#(seq)}"#) }
        Self.waitFor("100 lines written") { writer.status?.linesWritten == 100 }
        #expect(writer.status?.syncs == 0, "ordinary lines wait for their group's sync")
        writer.enqueue(seq: 101, line: #"{"class":"ARRIVED","seq":101}"#, urgent: true)
        Self.waitFor("the ARRIVED synced") { writer.status?.syncs == 1 }
        #expect(writer.status?.linesWritten == 101)
    }

    @Test func aGroupIsSyncedWithinTheIntervalAndIdleCostsNothing() throws {
        let dir = try TemporaryDirectory("log-sync-timer")
        defer { dir.remove() }
        var limits = LogWriter.Limits()
        limits.syncInterval = .milliseconds(200)
        let writer = LogWriter(log: EventLog(path: dir.path("events.jsonl")), limits: limits, logger: .init(label: "t"))
        let done = DispatchSemaphore(value: 0)
        Thread { writer.run(); done.signal() }.start()
        defer { writer.finish(); done.wait() }
        for seq in 1...20 { writer.enqueue(seq: seq, line: #"{"class":"PROXIMITY","seq":\#(seq)}"#) }
        Self.waitFor("the group synced") { writer.status?.syncs == 1 }
        // Idle: the writer wakes (every second at most) and syncs nothing more. A later line
        // is synced by a sync of its own, the second in all.
        writer.enqueue(seq: 21, line: #"{"class":"PROXIMITY","seq":21}"#)
        Self.waitFor("the second group synced") { writer.status?.syncs == 2 }
        #expect(writer.status?.linesWritten == 21)
    }
}

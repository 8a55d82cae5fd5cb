import Foundation
import Glibc
import HotColdTestSupport
import Logging
import HotColdDaemonTesting
import Testing
@testable import HotColdDaemon

/// Sequence numbers never repeat across restarts: real files, real "restarts" (new instances).
@Suite(.offCooperativePool) struct EventSequenceTests {
    let quiet = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

    @Test func restartsContinueAboveEverythingEverHandedOut() throws {
        let dir = try TemporaryDirectory("hotcold-seq"); defer { dir.remove() }
        let path = dir.path("event-seq")
        var last = 0
        for run in 0..<5 {
            let seq = EventSequence(path: path, blockSize: 8, logger: quiet)
            // Use more than a block (background reservations), and a different amount each run.
            for _ in 0..<(3 + run * 7) {
                let n = seq.next()
                #expect(n > last)
                last = n
            }
            seq.settle()
            #expect(seq.status.unreserved == 0)
            #expect(seq.status.reservedThrough >= last)
            // What is on disk covers every number given out: a crash now repeats nothing.
            #expect(EventSequence.load(path) == .value(seq.status.reservedThrough))
        }
    }

    @Test func startsAboveTheLogWhenTheFileIsMissing() throws {
        let dir = try TemporaryDirectory("hotcold-seq"); defer { dir.remove() }
        let seq = EventSequence(path: dir.path("event-seq"), logFloor: 41, logger: quiet)
        #expect(seq.next() == 42)
        let fresh = EventSequence(path: dir.path("other"), logger: quiet)
        #expect(fresh.next() == 1)
    }

    @Test func anUnreadableFileLeavesAWideGapAndSaysSo() throws {
        let dir = try TemporaryDirectory("hotcold-seq"); defer { dir.remove() }
        let path = dir.path("event-seq")
        try "12x\n".write(toFile: path, atomically: true, encoding: .utf8)
        guard case .unreadable(let problem) = EventSequence.load(path) else { Issue.record("read as a number"); return }
        #expect(problem.contains(path) && problem.contains("line 1"))
        let capture = LogCapture()
        let seq = EventSequence(path: path, logFloor: 500, logger: capture.logger)
        #expect(seq.next() == 1_000_501)
        #expect(capture.messages.withLock { $0.contains { $0.0 == .error && $0.1.contains(path) } })
    }

    @Test func anUnwritableDirectoryNeverStopsNumbering() throws {
        let dir = try TemporaryDirectory("hotcold-seq"); defer { dir.remove() }
        // A file in a directory that does not exist cannot be created, even by root.
        let capture = LogCapture()
        let seq = EventSequence(path: dir.path("missing/event-seq"), blockSize: 4, retryInterval: .zero, logger: capture.logger)
        var got: [Int] = []
        for _ in 0..<20 { got.append(seq.next()) }
        seq.settle()
        #expect(got == Array(1...20))
        #expect(seq.status.unreserved == 20)
        #expect(seq.status.error?.contains("missing/event-seq") == true)
        // Reported once, not once per attempt.
        #expect(capture.messages.withLock { $0.filter { $0.0 == .error }.count } == 1)
    }
}

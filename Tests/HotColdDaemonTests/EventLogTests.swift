import Foundation
import Glibc
import HotColdTestSupport
import HotColdDaemonTesting
import Testing
@testable import HotColdDaemon

@Suite("EventLog", .offCooperativePool)
struct EventLogTests {
    @Test("appends complete lines, visible at once, from many threads")
    func appendsLines() throws {
        let dir = try TemporaryDirectory("hotcold-log")
        defer { dir.remove() }
        let path = dir.path("events.jsonl")
        let log = EventLog(path: path)
        #expect(log.append(#"{"class":"GPS","state":"fix"}"#))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "{\"class\":\"GPS\",\"state\":\"fix\"}\n")

        DispatchQueue.concurrentPerform(iterations: 8) { t in
            for i in 0..<500 { log.append(#"{"class":"T","t":\#(t),"i":\#(i),"pad":"\#(String(repeating: "x", count: 300))"}"#) }
        }
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 4002 && lines.last == "")
        #expect(lines.dropFirst().dropLast().allSatisfy { $0.hasPrefix(#"{"class":"T""#) && $0.hasSuffix(#""}"#) })
        let status = log.status
        #expect(status.isWriting && status.linesWritten == 4001 && status.linesLost == 0 && status.error == nil)
        var st = stat()
        #expect(stat(path, &st) == 0 && st.st_mode & 0o777 == 0o640)
    }

    @Test("reopen after logrotate moved the file starts a new file")
    func reopenAfterRotation() throws {
        let dir = try TemporaryDirectory("hotcold-log")
        defer { dir.remove() }
        let path = dir.path("events.jsonl")
        let log = EventLog(path: path)
        log.append("{\"n\":1}")
        try FileManager.default.moveItem(atPath: path, toPath: path + ".1")
        log.append("{\"n\":2}")          // still the old file until SIGHUP
        #expect(log.reopen())
        log.append("{\"n\":3}")
        #expect(try String(contentsOfFile: path + ".1", encoding: .utf8) == "{\"n\":1}\n{\"n\":2}\n")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "{\"n\":3}\n")
    }

    @Test("a missing directory: keeps going, reports once, resumes when the directory appears")
    func missingDirectory() throws {
        let dir = try TemporaryDirectory("hotcold-log")
        defer { dir.remove() }
        let path = dir.path("later/events.jsonl")
        let capture = LogCapture()
        let log = EventLog(path: path, retryInterval: .zero, logger: capture.logger)
        for i in 0..<5 { #expect(!log.append("{\"n\":\(i)}")) }
        var status = log.status
        #expect(!status.isWriting && status.linesLost == 5 && status.failingSince != nil)
        #expect(status.error?.contains("No such file or directory") == true)
        #expect(capture.messages.withLock { $0.count } == 1)   // once, not per event

        try FileManager.default.createDirectory(atPath: dir.path("later"), withIntermediateDirectories: true)
        #expect(log.append("{\"n\":5}"))
        status = log.status
        #expect(status.isWriting && status.error == nil && status.linesWritten == 1)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "{\"n\":5}\n")
        let messages = capture.messages.withLock { $0.map { "\($0.0): \($0.1)" } }
        #expect(messages.count == 2 && messages[1].contains("again") && messages[1].contains("5 lines lost"))
    }

    @Test("retries are rate-limited: nothing is attempted until the interval passes or reopen()")
    func rateLimited() throws {
        let dir = try TemporaryDirectory("hotcold-log")
        defer { dir.remove() }
        // The parent is a regular file: ENOTDIR, whoever runs the test (root included).
        _ = FileManager.default.createFile(atPath: dir.path("file"), contents: Data())
        let path = dir.path("file/events.jsonl")
        let log = EventLog(path: path, retryInterval: .seconds(3600))
        #expect(!log.append("{}"))
        #expect(log.status.error?.contains("Not a directory") == true)
        try FileManager.default.removeItem(atPath: dir.path("file"))
        try FileManager.default.createDirectory(atPath: dir.path("file"), withIntermediateDirectories: true)
        #expect(!log.append("{}"))      // within the interval: not retried
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(log.reopen())           // SIGHUP retries at once
        #expect(log.append("{\"ok\":1}"))
        #expect(log.status.linesLost == 2)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "{\"ok\":1}\n")
    }

    @Test("a full disk (/dev/full) loses lines, records ENOSPC, and never throws or stops",
          .enabled(if: FileManager.default.fileExists(atPath: "/dev/full")))
    func diskFull() {
        let capture = LogCapture()
        let log = EventLog(path: "/dev/full", retryInterval: .zero, logger: capture.logger)
        for _ in 0..<100 { #expect(!log.append(#"{"class":"PROXIMITY"}"#)) }
        let status = log.status
        #expect(!status.isWriting && status.linesLost == 100 && status.linesWritten == 0)
        #expect(status.error == "cannot write /dev/full: No space left on device")
        #expect(capture.messages.withLock { $0.count } == 1)
    }
}

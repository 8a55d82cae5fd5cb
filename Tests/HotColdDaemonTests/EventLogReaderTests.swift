import Foundation
import HotColdCore
import HotColdTestSupport
import HotColdDaemonTesting
import Testing
@testable import HotColdDaemon

/// Reading numbered events back from a real log file and its rotated `.1`.
@Suite(.offCooperativePool) struct EventLogReaderTests {
    func line(_ seq: Int, _ cls: String = "GPS", pad: Int = 0) -> String {
        #"{"class":"\#(cls)","seq":\#(seq),"time":"2025-01-01T00:00:00.000Z","state":"fix","reason":"\#(String(repeating: "x", count: pad))"}"#
    }

    func write(_ lines: [String], to path: String, tail: String = "") throws {
        try (lines.map { $0 + "\n" }.joined() + tail).write(toFile: path, atomically: true, encoding: .utf8)
    }

    @Test func replaysAcrossTheRotatedFileInOrder() throws {
        let dir = try TemporaryDirectory("hotcold-logread"); defer { dir.remove() }
        let log = dir.path("events.jsonl")
        try write((1...50).map { line($0) }, to: log + ".1")
        try write((51...80).map { line($0) } + ["not json", #"{"class":"GPS","time":"old line"}"#], to: log,
                  tail: #"{"class":"GPS","seq":81,"ti"#)   // a line still being written
        var reader = EventLogReader()
        reader.chunkBytes = 100   // many chunk boundaries inside lines
        for since in [0, 1, 30, 50, 51, 79] {
            let r = reader.read(path: log, after: since, before: 1_000) { _, _ in true }
            #expect(r.isComplete, "since \(since)")
            #expect(r.lines.map(\.seq) == Array((since + 1)...80), "since \(since)")
            #expect(r.lines.first?.text == line(since + 1))
        }
        // Nothing at or above `before` (those go live).
        #expect(reader.read(path: log, after: 10, before: 20) { _, _ in true }.lines.map(\.seq) == Array(11...19))
        #expect(reader.read(path: log, after: 80, before: 81) { _, _ in true } == .init(lines: [], isComplete: true, firstSeq: 81))
        #expect(reader.lastSequence(path: log) == 80)
    }

    @Test func saysWhereTheLogStartsWhenRotatedAway() throws {
        let dir = try TemporaryDirectory("hotcold-logread"); defer { dir.remove() }
        let log = dir.path("events.jsonl")
        try write((200...230).map { line($0) }, to: log)
        let r = EventLogReader().read(path: log, after: 150, before: 231) { _, _ in true }
        #expect(!r.isComplete && r.firstSeq == 200)
        #expect(r.lines.map(\.seq) == Array(200...230))
        // Asking from just before the first line is complete.
        #expect(EventLogReader().read(path: log, after: 199, before: 231) { _, _ in true }.isComplete)
        // No log at all: gap up to the first live number.
        let none = EventLogReader().read(path: dir.path("missing.jsonl"), after: 5, before: 231) { _, _ in true }
        #expect(!none.isComplete && none.firstSeq == 231 && none.lines.isEmpty)
    }

    @Test func theFilterSelectsButGapsAreJudgedOnAllLines() throws {
        let dir = try TemporaryDirectory("hotcold-logread"); defer { dir.remove() }
        let log = dir.path("events.jsonl")
        try write((1...40).map { line($0, $0 % 4 == 0 ? "ARRIVED" : "PROXIMITY") }, to: log)
        let r = EventLogReader().read(path: log, after: 0, before: 41) { h, _ in h.className == "ARRIVED" }
        #expect(r.isComplete)
        #expect(r.lines.map(\.seq) == [4, 8, 12, 16, 20, 24, 28, 32, 36, 40])
    }

    @Test func limitsBoundMemoryAndReportTheFirstCompleteNumber() throws {
        let dir = try TemporaryDirectory("hotcold-logread"); defer { dir.remove() }
        let log = dir.path("events.jsonl")
        try write((1...1000).map { line($0, pad: 100) }, to: log)
        var byLines = EventLogReader()
        byLines.maxLines = 100
        let r = byLines.read(path: log, after: 0, before: 1001) { _, _ in true }
        #expect(!r.isComplete && r.firstSeq == 901 && r.lines.map(\.seq) == Array(901...1000))
        var byBytes = EventLogReader()
        byBytes.maxBytes = (951...1000).map { line($0, pad: 100).utf8.count }.reduce(0, +)
        let b = byBytes.read(path: log, after: 0, before: 1001) { _, _ in true }
        #expect(!b.isComplete && b.lines.count == 50 && b.firstSeq == 951)
        var byScan = EventLogReader()
        byScan.maxScanBytes = 64 << 10
        byScan.chunkBytes = 16 << 10
        let s = byScan.read(path: log, after: 0, before: 1001) { _, _ in true }
        #expect(!s.isComplete && s.lines.first?.seq == s.firstSeq && s.lines.last?.seq == 1000)
        // An overlong line is skipped, its neighbours kept.
        var long = EventLogReader()
        long.maxLineBytes = 1000
        long.chunkBytes = 256
        try write([line(1), line(2, pad: 5000), line(3)], to: log)
        #expect(long.read(path: log, after: 0, before: 4) { _, _ in true }.lines.map(\.seq) == [1, 3])
    }

    @Test func randomLineLengthsAndChunkSizesAgreeWithAForwardRead() throws {
        let dir = try TemporaryDirectory("hotcold-logread"); defer { dir.remove() }
        let log = dir.path("events.jsonl")
        var rng = SeededRandom(seed: 7)
        for round in 0..<30 {
            let count = Int.random(in: 1...120, using: &rng)
            let lines = (1...count).map { line($0, pad: Int.random(in: 0...400, using: &rng)) }
            try write(lines, to: log)
            var reader = EventLogReader()
            reader.chunkBytes = Int.random(in: 1...700, using: &rng)
            let since = Int.random(in: 0...count, using: &rng)
            let r = reader.read(path: log, after: since, before: count + 1) { _, _ in true }
            #expect(r.isComplete, "round \(round)")
            #expect(r.lines.map(\.text) == Array(lines[since...]), "round \(round) chunk \(reader.chunkBytes) since \(since)")
        }
    }
}

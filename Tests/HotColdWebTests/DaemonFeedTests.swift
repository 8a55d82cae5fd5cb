import Foundation
import HotColdTestSupport
import Synchronization
import HotColdDaemonTesting
import Testing
@testable import HotColdWeb

/// One browser's feed against a real hotcoldd: bounded, and honest about the daemon's link.
@Suite("a browser's feed from the daemon", .offCooperativePool, .serialized)
struct DaemonFeedTests {
    @Test("a browser that reads nothing is cut off once its queue is full, never buffered without end")
    func slowBrowserDropped() async throws {
        let daemon = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:1", "--target=-30.2748,153.1338,Feed Banana"])
        defer { daemon.stop() }
        let drops = Mutex(0)
        let feed = DaemonFeed(socketPath: daemon.socketPath, since: nil, statusInterval: 0.1, queue: 16,
                              onDrop: { drops.withLock { $0 += 1 } })
        try feed.start()
        let deadline = Date().addingTimeInterval(20)
        while drops.withLock({ $0 }) == 0, Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        #expect(drops.withLock { $0 } == 1)
        var n = 0
        for await _ in feed.frames { n += 1 }    // what was queued, then the end
        #expect(n == 16)
    }

    @Test("the daemon going away is said at once: link down, with the reason")
    func linkState() async throws {
        let daemon = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:1", "--target=-30.2748,153.1338,Feed Banana"])
        let feed = DaemonFeed(socketPath: daemon.socketPath, since: nil, statusInterval: 0.2, queue: 1024)
        try feed.start()
        defer { feed.stop() }
        var it = feed.frames.makeAsyncIterator()
        var seen: [String] = []
        func next(until match: (String) -> Bool) async -> Bool {
            let end = Date().addingTimeInterval(15)
            while Date() < end, let f = await it.next() {
                seen.append(f.text)
                if match(f.text) { return true }
            }
            return false
        }
        #expect(await next { $0.hasPrefix("event: status\n") })
        daemon.stop()
        #expect(await next { $0.hasPrefix("event: link\ndata: {\"reason\":") && $0.contains("\"up\":false") }, "\(seen.suffix(3))")
    }

    @Test("a resuming browser gets a STATUS before the replay: every replayed event is numbered at or below its sequence.last")
    func statusBeforeReplay() async throws {
        let daemon = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:1", "--target=-30.2748,153.1338,Feed Banana"])
        defer { daemon.stop() }
        // An event in the log to replay: the daemon says its GPS link is lost (nothing on port 1).
        let end = Date().addingTimeInterval(15)
        while daemon.logLines.isEmpty, Date() < end { try await Task.sleep(for: .milliseconds(50)) }
        #expect(!daemon.logLines.isEmpty, "an event in the daemon's log")
        let feed = DaemonFeed(socketPath: daemon.socketPath, since: 0, statusInterval: 5, queue: 1024)
        try feed.start()
        defer { feed.stop() }
        var texts: [String] = []
        for await f in feed.frames {
            texts.append(f.text)
            if f.text.hasPrefix("id: ") { break }
        }
        let status = try #require(texts.firstIndex { $0.hasPrefix("event: status\n") }, "\(texts)")
        let event = try #require(texts.firstIndex { $0.hasPrefix("id: ") })
        #expect(status < event, "the STATUS comes before the replayed events: \(texts)")
        let last = try #require(texts[status].firstMatch(of: /"last":(\d+)/).flatMap { Int($0.1) })
        let seq = try #require(texts[event].firstMatch(of: /^id: (\d+)/).flatMap { Int($0.1) })
        #expect(seq <= last, "a replayed event (\(seq)) is history the STATUS (last \(last)) reflects")
    }
}

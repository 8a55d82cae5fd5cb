import Foundation
import HotColdTestSupport
import HotColdDaemonTesting
import Synchronization
import Testing
@testable import HotColdWeb

/// The page always starts: its own files are never refused by the per-address rate limit (a
/// load is two dozen of them), while everything that reaches the daemon still is.
@Suite("the page's own files and the rate limit", .offCooperativePool, .serialized)
struct PageStartTests {
    @Test("60 of the page's files from one address in a burst: all 200 or 304; the session is still answered; 100 session reads in a burst are limited")
    func assetsNeverRefused() async throws {
        // A limit of 1 request a second (burst 5): the page's 60 files must pass it untouched,
        // and 100 session reads cannot outrun its refill however slow the machine is.
        let r = try await WebServerTests.Running(rate: (perSecond: 1, burst: 5))
        defer { r.stop() }
        let paths = ["/", "/app.css"] + PageAssets.modules.keys.sorted().map { "/js/" + $0 }
        let tags = Mutex<[String: String]>([:])
        for p in paths.prefix(4) {
            let first = try await RawHTTP.get(r.port, p)
            tags.withLock { $0[p] = first.headers["etag"] }
        }
        // Three page loads' worth at once, from six threads; half of them revalidating.
        let statuses = Mutex<[Int]>([])
        try await onThread {
            let threads = (0..<6).map { t in
                Thread {
                    for i in 0..<10 {
                        let p = paths[(t * 10 + i) % paths.count]
                        let tag = tags.withLock { $0[p] }
                        let headers = (i % 2 == 0 ? tag.map { ["If-None-Match: \($0)"] } : nil) ?? []
                        let s = (try? RawHTTP.getBlocking(r.port, p, headers: headers, seconds: 30).status) ?? -1
                        statuses.withLock { $0.append(s) }
                    }
                }
            }
            threads.forEach { $0.start() }
            let deadline = Date().addingTimeInterval(120)
            while statuses.withLock({ $0.count }) < 60, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        }
        let got = statuses.withLock { $0 }
        #expect(got.count == 60 && got.allSatisfy { $0 == 200 || $0 == 304 }, "\(got.filter { $0 != 200 && $0 != 304 }.count) refused: \(got)")
        #expect(try await RawHTTP.get(r.port, "/session").status == 200, "the page's start is still answered")
        // What reaches the daemon is still limited: 100 session reads at once (ten threads), some 429.
        let limited = Mutex<[Int]>([])
        try await onThread {
            let threads = (0..<10).map { _ in
                Thread { for _ in 0..<10 { limited.withLock { $0.append((try? RawHTTP.getBlocking(r.port, "/session").status) ?? -1) } } }
            }
            threads.forEach { $0.start() }
            let deadline = Date().addingTimeInterval(120)
            while limited.withLock({ $0.count }) < 100, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        }
        #expect(limited.withLock { $0.contains(429) }, "\(limited.withLock { Set($0) })")
    }
}

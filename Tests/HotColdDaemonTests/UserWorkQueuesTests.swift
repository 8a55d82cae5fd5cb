import Dispatch
import Foundation
import Glibc
import HotColdTestSupport
import Logging
import Synchronization
import HotColdDaemonTesting
import Testing
@testable import HotColdDaemon

/// One work queue per Unix user: a user's work keeps its order, and no user waits behind
/// another's; and the database file's identity is watched.
@Suite(.offCooperativePool) struct UserWorkQueuesTests {
    @Test func oneUsersStuckWorkDoesNotHoldUpAnother() {
        let queues = UserWorkQueues()
        let release = DispatchSemaphore(value: 0)
        let order = Mutex<[String]>([])
        // The reader's first job blocks; its next ones wait behind it, in order.
        queues.async(user: "reader") { release.wait(); order.withLock { $0.append("r0") } }
        for i in 1...3 { queues.async(user: "reader") { order.withLock { $0.append("r\(i)") } } }
        let done = DispatchSemaphore(value: 0)
        queues.async(user: "writer") { order.withLock { $0.append("w") }; done.signal() }
        #expect(done.wait(timeout: .now() + 30) == .success, "the writer waited behind the reader")
        #expect(order.withLock { $0 } == ["w"])
        release.signal()
        #expect(eventually { order.withLock { $0.count } == 5 })
        #expect(order.withLock { $0 } == ["w", "r0", "r1", "r2", "r3"])
    }

    @Test func idleUsersQueuesAreDroppedPastTheLimit() {
        let queues = UserWorkQueues(retained: 4)
        for i in 0..<20 {
            let done = DispatchSemaphore(value: 0)
            queues.async(user: "u\(i)") { done.signal() }
            done.wait()
            #expect(eventually { queues.users <= 5 })
        }
    }

    @Test func aReplacedDatabaseFileIsNoticed() throws {
        let dir = try TemporaryDirectory("hotcold-dbwatch"); defer { dir.remove() }
        let path = dir.path("hc.sqlite")
        try Data("a".utf8).write(to: URL(fileURLWithPath: path))
        let watch = DatabaseFileWatch(path: path, logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        #expect(watch.check() == nil)
        // Renamed over by another file (a restore, a careless copy): not the open file any more.
        try Data("b".utf8).write(to: URL(fileURLWithPath: dir.path("other")))
        rename(dir.path("other"), path)
        #expect(watch.check()?.contains("replaced") == true)
    }
}

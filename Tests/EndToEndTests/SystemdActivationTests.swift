import Foundation
import HotColdTestSupport
import HotColdDaemonTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// hotcoldd under systemd's protocols, exercised with systemd's own test tool.
@Suite(.offCooperativePool) struct SystemdActivationTests {
    @Test func socketActivationReadinessWatchdogAndStopping() throws {
        let dir = try TemporaryDirectory("activate")
        defer { dir.remove() }
        let socketPath = dir.path("act.sock")
        let notify = try NotifyListener(path: dir.path("notify.sock"))
        let daemon = try DaemonProcess(
            arguments: ["-l", socketPath,
                        "-E", "NOTIFY_SOCKET=\(notify.path)", "-E", "WATCHDOG_USEC=1000000",
                        Binaries.url("hotcoldd").path,
                        "--gpsd", "127.0.0.1:1", "--log", dir.path("events.jsonl"), "--db", dir.path("hc.sqlite"),
                        "--target", "-30.3,153.1,Activated"],
            waitForSocket: false, executable: URL(fileURLWithPath: "/usr/bin/systemd-socket-activate"),
            extraFiles: false)
        defer { daemon.stop() }
        try daemon.waitFor(socketPath)
        // The first connection starts the daemon on the passed socket.
        let client = try LineClient(path: socketPath)
        _ = try client.read(class: "VERSION", timeout: 20)
        #expect(notify.wait(for: "READY=1"), "\(notify.messages)")
        #expect(notify.wait(for: "STATUS="), "\(notify.messages)")
        #expect(notify.wait(for: "WATCHDOG=1", timeout: 20), "\(notify.messages)")
        try client.send(#"{"cmd":"status"}"#)
        let status = try client.read(class: "STATUS")
        #expect((status["socket"] as? [String: Any])?["path"] as? String == socketPath)

        daemon.signal(SIGTERM)
        #expect(notify.wait(for: "STOPPING=1"), "\(notify.messages)")
        #expect(daemon.waitForExit(timeout: 20) == 0)
        // The socket belongs to the activator: the daemon leaves it in place.
        #expect(FileManager.default.fileExists(atPath: socketPath))
    }
}

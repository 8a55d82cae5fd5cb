import Foundation
import Glibc
import HotColdTestSupport
import HotColdDaemonTesting
import Testing
@testable import HotColdDaemon

/// A datagram socket standing in for systemd's notification socket.
final class NotifyListener {
    let fd: Int32
    let address: String

    init(address: String) throws {
        self.address = address
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        guard let a = UnixSocketAddress(address), a.withSockaddr({ bind(fd, $0, $1) }) == 0 else {
            throw TestError("bind \(address): \(String(cString: strerror(errno)))")
        }
    }

    deinit { close(fd) }

    func receive(timeout: Int32 = 20_000) -> String? {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&p, 1, timeout) == 1 else { return nil }
        var buf = [UInt8](repeating: 0, count: 4096)
        let n = recv(fd, &buf, buf.count, 0)
        return n >= 0 ? String(decoding: buf[..<n], as: UTF8.self) : nil
    }
}

@Suite("SystemdNotifier", .offCooperativePool)
struct SystemdNotifierTests {
    @Test("sends READY, STATUS, WATCHDOG, RELOADING and STOPPING to a path socket")
    func pathSocket() throws {
        let dir = try TemporaryDirectory("hotcold-notify")
        defer { dir.remove() }
        let listener = try NotifyListener(address: dir.path("notify"))
        let n = SystemdNotifier(environment: ["NOTIFY_SOCKET": listener.address, "WATCHDOG_USEC": "4000000",
                                              "WATCHDOG_PID": "\(getpid())"])
        #expect(n.isEnabled)
        #expect(n.watchdogInterval == .seconds(4) && n.watchdogPingInterval == .seconds(2))
        #expect(n.ready(status: "waiting for gpsd\non localhost"))
        #expect(listener.receive() == "READY=1\nSTATUS=waiting for gpsd on localhost")
        n.status("tracking 3 targets")
        #expect(listener.receive() == "STATUS=tracking 3 targets")
        n.watchdog()
        #expect(listener.receive() == "WATCHDOG=1")
        #expect(!n.watchdogIfDue())      // just pinged: not due for two seconds
        n.reloading()
        #expect(listener.receive()?.hasPrefix("RELOADING=1\nMONOTONIC_USEC=") == true)
        n.stopping()
        #expect(listener.receive() == "STOPPING=1")
    }

    @Test("an abstract @name socket works too; the first watchdogIfDue pings")
    func abstractSocket() throws {
        let name = "@hotcold-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let listener = try NotifyListener(address: name)
        let n = SystemdNotifier(environment: ["NOTIFY_SOCKET": name, "WATCHDOG_USEC": "1000000"])
        #expect(n.watchdogIfDue())
        #expect(listener.receive() == "WATCHDOG=1")
        n.ready()
        #expect(listener.receive() == "READY=1")
    }

    @Test("without NOTIFY_SOCKET, or with a watchdog for another pid, nothing happens")
    func disabled() {
        let n = SystemdNotifier(environment: [:])
        #expect(!n.isEnabled && !n.ready() && !n.watchdogIfDue() && n.watchdogInterval == nil)
        #expect(SystemdNotifier.watchdogInterval(environment: ["WATCHDOG_USEC": "100", "WATCHDOG_PID": "1"], pid: 2) == nil)
        #expect(SystemdNotifier.watchdogInterval(environment: ["WATCHDOG_USEC": "0"]) == nil)
        #expect(SystemdNotifier.watchdogInterval(environment: ["WATCHDOG_USEC": "x"]) == nil)
        #expect(!SystemdNotifier(environment: ["NOTIFY_SOCKET": "relative/path"]).isEnabled)
    }

    @Test("systemd-notify (the reference client) and our listener agree on the protocol",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-notify")))
    func referenceClient() throws {
        let dir = try TemporaryDirectory("hotcold-notify")
        defer { dir.remove() }
        let listener = try NotifyListener(address: dir.path("notify"))
        let r = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/systemd-notify"), ["--no-block", "--ready", "--status=hello"],
                                   environment: ["NOTIFY_SOCKET": listener.address])
        #expect(r.status == 0, "\(r.stderr)")
        let got = listener.receive() ?? ""
        #expect(got.contains("READY=1") && got.contains("STATUS=hello"))
    }
}

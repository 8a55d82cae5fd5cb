import Foundation
@testable import HotColdProtocol
import HotColdTestSupport
import HotColdDaemonTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The built hotcold-web under libfaketime, its wall clock moved while it runs (the offset file
/// is read at every look at the clock; the monotonic and boot clocks are left alone, as a real
/// jump leaves them): a box that booted two years behind, then NTP's correction, then a clock 100
/// days ahead, then back. Links and sessions follow the boot clock through all of it.
@Suite("pairing while hotcold-web's wall clock jumps (faketime)", .offCooperativePool, .serialized)
struct PairingFaketimeTests {
    static let library = "/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1"
    static var available: Bool { FileManager.default.fileExists(atPath: library) }
    /// The hotcold-web under test: the build's, or `HOTCOLD_WEB_UNDER_TEST` (to show a test
    /// failing on a build from before a fix).
    static var binary: String { ProcessInfo.processInfo.environment["HOTCOLD_WEB_UNDER_TEST"] ?? Binaries.url("hotcold-web").path }

    /// hotcold-web under faketime, its offset in `offsetFile`.
    final class JumpingWeb: @unchecked Sendable {
        let dir: TemporaryDirectory
        let offsetFile: String
        let port: Int
        let control: String
        var web: SpawnedProcess?
        let daemonSocket: String

        init(daemonSocket: String, offset: String) throws {
            self.daemonSocket = daemonSocket
            dir = try TemporaryDirectory("faketime-web")
            offsetFile = dir.path("offset")
            control = dir.path("control.sock")
            port = Int(try FreePort.tcp())
            try jump(to: offset)
            try start()
        }

        /// Through the `faketime` wrapper (its shared memory is what keeps a Swift program's
        /// arguments intact under libfaketime; a bare LD_PRELOAD loses them), with `FAKETIME`
        /// unset so the offset comes from the file, read at every look at the clock (a cache
        /// counted on the faked clock would never expire after a jump back).
        func start() throws {
            web = try SpawnedProcess(["/usr/bin/faketime", "-f", "+0", "/usr/bin/env", "-u", "FAKETIME",
                                      "FAKETIME_TIMESTAMP_FILE=\(offsetFile)", "FAKETIME_NO_CACHE=1",
                                      "FAKETIME_DONT_FAKE_MONOTONIC=1",
                                      PairingFaketimeTests.binary, "--socket", daemonSocket, "--port", "\(port)",
                                      "--state-dir", dir.path("state"), "--control-socket", control,
                                      "--daemon-config", dir.path("none.toml")], stderr: dir.path("web.stderr"))
            let deadline = Date().addingTimeInterval(30)
            while (try? RawHTTP.getBlocking(port, "/app.css", seconds: 1).status) != 200, Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
            while !FileManager.default.fileExists(atPath: control), Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        }

        /// Stops hotcold-web itself (the wrapper passes no signal on) and then the wrapper.
        func terminate() {
            guard let web else { return }
            let children = (try? String(contentsOfFile: "/proc/\(web.pid)/task/\(web.pid)/children", encoding: .utf8)) ?? ""
            for child in children.split(separator: " ").compactMap({ pid_t($0) }) { kill(child, SIGTERM) }
            if web.wait(timeout: 10) == nil { web.terminate() }
            self.web = nil
        }

        func restart() throws {
            terminate()
            unlink(control)
            try start()
        }

        /// Moves hotcold-web's wall clock by `offset` ("+100d", "-2y", "+0") from the real one:
        /// the file is replaced whole, and hotcold-web's next look at the clock reads it.
        func jump(to offset: String) throws {
            try (offset + "\n").write(toFile: offsetFile, atomically: true, encoding: .utf8)
        }

        static func seconds(_ offset: String) -> Double {
            let sign: Double = offset.hasPrefix("-") ? -1 : 1
            let body = offset.drop { $0 == "+" || $0 == "-" }
            let unit: Double = switch body.last { case "y": 365 * 86_400; case "d": 86_400; case "h": 3600; default: 1 }
            return sign * (Double(body.filter(\.isNumber)) ?? 0) * unit
        }

        /// `pair` on the control socket (as root, a writer): the link.
        func pair(_ name: String) throws -> String { try pairing(name).token }

        func pairing(_ name: String) throws -> WebPairedReply {
            let c = try LineClient(path: control)
            try c.send(#"{"cmd":"pair","name":"\#(name)"}"#)
            return try WireCoding.decode(WebPairedReply.self, from: try c.line(ofClass: "PAIRED", timeout: 10))
        }

        /// Opens a link: the session cookie, or nil when refused.
        func open(_ link: String) throws -> String? {
            let r = try RawHTTP.getBlocking(port, "/pair?t=\(link)")
            guard r.status == 303, let c = r.headers["set-cookie"] else { return nil }
            return String(c.dropFirst("hc_token=".count).prefix { $0 != ";" })
        }

        func isPaired(_ session: String) throws -> Bool {
            try RawHTTP.getBlocking(port, "/session", headers: ["Cookie: hc_token=\(session)"]).body.contains(#""access":"paired""#)
        }

        func stop() {
            terminate()
            dir.remove()
        }
    }

    @Test("booted two years behind, corrected, 100 days ahead, back again, restarted: links open within their minutes and no session ends or revives",
          .enabled(if: available), .timeLimit(.minutes(4)))
    func jumpsBothWays() async throws {
        try await onThread {
            let daemon = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:1"])
            defer { daemon.stop() }
            let web = try JumpingWeb(daemonSocket: daemon.socketPath, offset: "-2y")
            defer { web.stop() }
            // The box booted without a real-time clock, two years behind: a phone pairs.
            let phone = try #require(try web.open(try web.pair("phone")), "a fresh link opens")
            let carLink = try web.pair("car")
            // NTP corrects the clock: two years forward at once.
            try web.jump(to: "+0")
            #expect(try web.isPaired(phone), "a 90-day session made 'two years ago' seconds ago still holds")
            let car = try #require(try web.open(carLink), "a link made seconds ago opens, though its wall-clock date is two years past")
            // A clock 100 days ahead: pairing one more device keeps the others.
            try web.jump(to: "+100d")
            let tabletLink = try web.pair("tablet")
            #expect(try web.isPaired(phone) && web.isPaired(car), "pairing with the clock 100 days ahead unpaired the others")
            // And back two years behind: the link made 'in 100 days' opens once, like any other,
            // and a link once opened never opens again.
            try web.jump(to: "-2y")
            let tablet = try #require(try web.open(tabletLink))
            #expect(try web.open(carLink) == nil, "an opened link opens again after a jump back")
            #expect(try web.isPaired(phone) && web.isPaired(car) && web.isPaired(tablet))
            // A restart on the same boot, the clock a year ahead: every pairing kept.
            try web.restart()
            try web.jump(to: "+1y")
            #expect(try web.isPaired(phone) && web.isPaired(car) && web.isPaired(tablet), "kept across a restart")
            let devices = try Subprocess.run(Binaries.url("hotcold"), ["web", "devices", "--control", web.control])
            #expect(devices.stdout.split(separator: "\n").count == 3, "\(devices.stdout)")
            // The clock hotcold-web read was the faked one: a new link's expiry, in its words, is
            // a year ahead (ten minutes on).
            let probe = try #require(try web.pairing("probe").linkExpires)
            let yearAhead = Date().addingTimeInterval(365 * 86_400 + 600)
            #expect(abs(probe.timeIntervalSince(yearAhead)) < 86_400, "hotcold-web's clock was not faked: \(probe)")
        }
    }
}

import Foundation
import HotColdCore
import HotColdTestSupport
import HotColdDaemonTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// hotcoldd for real: a real gpsd fed NMEA over UDP, the built daemon as a subprocess, real
/// Unix-socket clients, the real log file.
@Suite(.offCooperativePool, .serialized) struct DaemonTests {
    /// A drive due east at 10 m/s from near Coffs Harbour; the target sits on the road 300 m on.
    let track = SyntheticTrack(start: (-30.30, 153.10), bearing: 90, speed: 10)
    var target: String {
        let p = track.point(second: 30)
        return "\(p.latitude),\(p.longitude),Roadside Thing"
    }


    func fixes(_ client: LineClient) throws -> Int {
        try client.send(#"{"cmd":"status"}"#)
        let s = try client.read(class: "STATUS")
        return (s["counters"] as? [String: Any])?["fixes"] as? Int ?? -1
    }

    @Test func eventsReachSocketAndLogFromRealGPSD() throws {
        let gpsd = try GPSDHarness.udp()
        defer { gpsd.terminate() }
        let daemon = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:\(gpsd.port)", "--target", target])
        defer { daemon.stop() }
        let client = try daemon.connect()
        let version = try client.read(class: "VERSION")
        #expect(version["proto_major"] as? Int == 1)
        try client.send(#"{"cmd":"watch"}"#)
        _ = try client.read(class: "WATCH")
        try client.waitUntilGPSDConnected()

        let feeder = NMEAFeeder(track: track, udpPort: gpsd.udpPort!, interval: 0.05)
        feeder.start()
        defer { feeder.stop() }
        var got: [String] = []
        var arrived = false
        let deadline = Date().addingTimeInterval(20)
        while !arrived, Date() < deadline, let line = try client.readLine(timeout: 20) {
            got.append(line)
            if LineClient.object(line)?["class"] as? String == "ARRIVED" { arrived = true }
        }
        #expect(arrived, "events: \(got)")
        let prox = got.compactMap(LineClient.object).filter { $0["class"] as? String == "PROXIMITY" }
        #expect(!prox.isEmpty)
        #expect(prox.allSatisfy { ($0["target"] as? [String: Any])?["name"] as? String == "Roadside Thing" })
        // Every event the client saw is in the log, in the same order.
        // The log's writer has a thread of its own: wait until it has written what the socket sent.
        let events = got.filter { ["PROXIMITY", "ARRIVED", "DEPARTED", "GPS"].contains(LineClient.object($0)?["class"] as? String ?? "") }
        var log: [String] = []
        var i = 0
        let logDeadline = Date().addingTimeInterval(20)
        repeat {
            log = daemon.logLines
            i = 0
            for line in log where i < events.count && line == events[i] { i += 1 }
            if i == events.count { break }
            usleep(20_000)
        } while Date() < logDeadline
        #expect(i == events.count, "log \(log.count) lines, socket \(events.count) events")
    }

    @Test func gpsdRestartIsSurvivedWithin3Seconds() throws {
        let gpsd = try GPSDHarness.udp()
        let daemon = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:\(gpsd.port)", "--target", target])
        defer { daemon.stop() }
        let client = try daemon.connect()
        try client.send(#"{"cmd":"watch","classes":["GPS"]}"#)
        _ = try client.read(class: "WATCH")
        try client.waitUntilGPSDConnected()
        let feeder = NMEAFeeder(track: track, udpPort: gpsd.udpPort!, interval: 0.1)
        feeder.start()
        defer { feeder.stop() }
        _ = try client.read(class: "GPS", timeout: 10)        // fix
        gpsd.kill9()
        let lost = try client.read(class: "GPS", timeout: 10)
        #expect(lost["state"] as? String == "lost")
        #expect((lost["reason"] as? String)?.isEmpty == false)
        usleep(500_000)
        let before = try fixes(client)
        let restarted = try GPSDHarness.udp(port: gpsd.port, udpPort: gpsd.udpPort)
        defer { restarted.terminate() }
        let back = Date()
        var streaming: TimeInterval? = nil
        while Date().timeIntervalSince(back) < 10 {
            if try fixes(client) > before { streaming = Date().timeIntervalSince(back); break }
            usleep(50_000)
        }
        let s = try #require(streaming, "no fixes after gpsd came back")
        #expect(s < 3, "streaming again after \(s) s")
        #expect(daemon.process.isRunning)
    }

    @Test func badClientInputGetsErrorsAndTheDaemonServesOn() throws {
        let daemon = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:1", "--target", target])
        defer { daemon.stop() }
        let bad = try daemon.connect()
        _ = try bad.read(class: "VERSION")
        let watcher = try daemon.connect()
        _ = try watcher.read(class: "VERSION")

        try bad.send("this is not json")
        #expect((try bad.read(class: "ERROR")["message"] as? String)?.contains("not JSON") == true)
        try bad.send(#"{"cmd":"fly"}"#)
        #expect((try bad.read(class: "ERROR")["message"] as? String)?.contains("unknown command \"fly\"") == true)
        try bad.send(#"{"cmd":"watch","enable":"yes"}"#)
        #expect((try bad.read(class: "ERROR")["message"] as? String)?.contains("enable") == true)
        try bad.send(#"{"cmd":"watch","enable":1}"#)            // a number is not a boolean
        #expect((try bad.read(class: "ERROR")["message"] as? String)?.contains("true or false") == true)
        try bad.send(#"{"cmd":"roam","radius":"far"}"#)
        #expect((try bad.read(class: "ERROR")["message"] as? String)?.contains("radius") == true)
        try bad.send(bytes: [0x7B, 0xFF, 0xFE, 0x7D, 0x0A])          // invalid UTF-8
        _ = try bad.read(class: "ERROR")
        // A 1 MiB line: refused, and the connection still works afterwards.
        try bad.send(bytes: [UInt8](repeating: 0x61, count: 1 << 20) + [0x0A])
        let tooLong = try bad.read(class: "ERROR", timeout: 10)
        #expect((tooLong["message"] as? String)?.lowercased().contains("long") == true)
        try bad.send(#"{"cmd":"status"}"#)
        _ = try bad.read(class: "STATUS")
        // The other client never noticed.
        try watcher.send(#"{"cmd":"version"}"#)
        _ = try watcher.read(class: "VERSION")
        #expect(daemon.process.isRunning)
    }

    @Test func writeCommandsNeedAuthorisation() throws {
        // The daemon runs as this user, who is always allowed; an allowed client can hunt.
        let daemon = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:1"])
        defer { daemon.stop() }
        let c = try daemon.connect()
        try c.send(#"{"cmd":"hunt","targets":["-30.3,153.1,Here"]}"#)
        let t = try c.read(class: "TRACKING")
        #expect(t["mode"] as? String == "hunt" && t["targets"] as? Int == 1)
        try c.send(#"{"cmd":"hunt","targets":["95,0"]}"#)
        #expect((try c.read(class: "ERROR")["message"] as? String)?.contains("out of range") == true)
    }

    @Test func badConfigurationAtStartExits78NamingKeyAndLine() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.path("bad.toml")
        try "[gpsd]\nhost = \"localhost\"\n\n[engine]\narrival_radius = \"near\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        let r = try Subprocess.run(Binaries.url("hotcoldd"), ["--config", path])
        #expect(r.status == 78)
        #expect(r.stderr.contains("\(path):5: engine.arrival_radius: expected a distance"), "\(r.stderr)")
    }

    @Test func reloadKeepsTheOldConfigurationWhenTheNewOneIsBad() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.path("hc.toml")
        try "[tracking]\nmode = \"hunt\"\ntargets = [\"-30.3,153.1,One\"]\n".write(toFile: path, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(arguments: ["--config", path, "--gpsd", "127.0.0.1:1"])
        defer { daemon.stop() }
        let c = try daemon.connect()
        func tracked() throws -> Int {
            try c.send(#"{"cmd":"status"}"#)
            return ((try c.read(class: "STATUS")["tracking"] as? [String: Any])?["candidates"] as? Int) ?? -1
        }
        #expect(try tracked() == 1)
        try "[tracking]\nmode = \"hunt\"\ntargets = [\"-30.3,153.1,One\"]\nbogus = 1\n".write(toFile: path, atomically: true, encoding: .utf8)
        daemon.signal(SIGHUP)
        usleep(500_000)
        #expect(daemon.process.isRunning)
        #expect(daemon.stderr.contains("tracking.bogus"), "\(daemon.stderr)")
        #expect(try tracked() == 1)
        // A good file takes effect.
        try "[tracking]\nmode = \"hunt\"\ntargets = [\"-30.3,153.1,One\", \"-30.4,153.1,Two\"]\n".write(toFile: path, atomically: true, encoding: .utf8)
        daemon.signal(SIGHUP)
        usleep(500_000)
        #expect(try tracked() == 2)
    }

    /// Issue 31: SIGHUP to a daemon started without --config said nothing at all.
    @Test func sighupWithoutAConfigurationSaysWhatItDid() throws {
        let daemon = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:1"])
        defer { daemon.stop() }
        _ = try daemon.connect().read(class: "VERSION")
        daemon.signal(SIGHUP)
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, !daemon.stderr.contains("reload:") { usleep(20_000) }
        #expect(daemon.stderr.contains("no configuration file to re-read"), "\(daemon.stderr)")
        #expect(daemon.process.isRunning)
    }

    @Test func sigtermStopsWithin1sAndRemovesTheSocket() throws {
        let daemon = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:1"])
        defer { daemon.stop() }
        let c = try daemon.connect()
        _ = try c.read(class: "VERSION")
        let start = Date()
        daemon.signal(SIGTERM)
        let status = daemon.waitForExit(timeout: 30)
        let took = Date().timeIntervalSince(start)
        #expect(status == 0)
        // Prompt, not timed to the millisecond: a stop that waits on gpsd, a client or the disk
        // would take the whole 30 s; a loaded machine can take a few.
        #expect(took < 10, "took \(took) s")
        #expect(!FileManager.default.fileExists(atPath: daemon.socketPath))
        // The client saw the connection close.
        var closed = false
        while let _ = try? c.readLine(timeout: 2) {}
        closed = true
        #expect(closed)
    }
}

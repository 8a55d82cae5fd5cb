import Foundation
import HotColdProtocol
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// People read local time (issue 31): `hotcold watch` prints the box's zone, as `visits` does;
/// JSON keeps ISO-8601 UTC.
@Suite(.offCooperativePool) struct LocalTimeTests {
    @Test func watchPrintsTheLocalClock() throws {
        let gpsd = try GPSDHarness.udp()
        let daemon = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:\(gpsd.port)"])
        defer { daemon.stop(); gpsd.terminate() }
        try daemon.connect().waitUntilGPSDConnected()
        let out = Pipe()
        let watch = Process()
        watch.executableURL = Binaries.url("hotcold")
        watch.arguments = ["watch", "--class", "GPS", "--count", "1", "--no-color", "--socket", daemon.socketPath]
        var env = ProcessInfo.processInfo.environment
        env["TZ"] = "Australia/Sydney"
        watch.environment = env
        watch.standardOutput = out
        try watch.run()
        // Once the watch is subscribed (the daemon counts it), gpsd goes: a GPS event.
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            let s = try daemon.connect().call(.status, expecting: StatusReply.self)
            if (s.socket?.clients ?? 0) >= 2 { break }
            usleep(50_000)
        }
        gpsd.terminate()
        // Never hang the suite: a watch that heard nothing is stopped (and the test fails).
        DispatchQueue.global().asyncAfter(deadline: .now() + 30) { if watch.isRunning { watch.terminate() } }
        watch.waitUntilExit()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let clock = try #require(text.firstMatch(of: /(\d\d):(\d\d):(\d\d)  GPS/), "\(text)")
        let printed = Int(clock.1)! * 60 + Int(clock.2)!
        var sydney = Calendar(identifier: .gregorian)
        sydney.timeZone = TimeZone(identifier: "Australia/Sydney")!
        let now = sydney.dateComponents([.hour, .minute], from: Date())
        let expected = now.hour! * 60 + now.minute!
        let apart = min(abs(printed - expected), 1440 - abs(printed - expected))
        #expect(apart <= 2, "watch printed \(clock.0); Sydney's clock says \(now.hour!):\(now.minute!)")
    }
}


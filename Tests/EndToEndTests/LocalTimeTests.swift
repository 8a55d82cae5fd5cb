import Foundation
@testable import HotColdProtocol
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
        // The watch's request is counted when the daemon reads it (`lines_in`) and handled on
        // the same loop before any later line: once the count is ahead of this test's own status
        // requests, the watch is subscribed, and gpsd goes: a GPS event it must hear.
        let status = try daemon.connect()
        let before = try status.call(.status, expecting: StatusReply.self).socket?.linesIn ?? 0
        try watch.run()
        var asked = 0, subscribed = false
        let deadline = Date().addingTimeInterval(30)
        while !subscribed, Date() < deadline {
            asked += 1
            let s = try status.call(.status, expecting: StatusReply.self)
            subscribed = (s.socket?.linesIn ?? 0) - before > asked
            if !subscribed { usleep(20_000) }
        }
        #expect(subscribed, "the watch's request never reached the daemon")
        gpsd.terminate()
        // Never hang the suite: a watch that heard nothing is stopped (and the test fails). Waited
        // for here, not on a dispatch timer, which a pool of blocked threads could hold back.
        let heard = Date().addingTimeInterval(30)
        while watch.isRunning, Date() < heard { usleep(20_000) }
        if watch.isRunning { watch.terminate() }
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


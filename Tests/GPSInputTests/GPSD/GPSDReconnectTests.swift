import Foundation
import GPSInput
import HotColdCore
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// gpsd absent, killed and restarted: `.lost` once, then streaming again within 3 s.
@Suite("GPSDSource reconnects", .offCooperativePool, .enabled(if: GPSDHarness.gpsdAvailable))
struct GPSDReconnectTests {
    static let track = SyntheticTrack(start: (-27.4698, 153.0251), bearing: 180, speed: 8)

    @Test("gpsd absent at start: .lost once, then .connected and fixes within 3 s of gpsd starting")
    func absentAtStart() throws {
        let port = try FreePort.tcp(), udpPort = try FreePort.udp()
        let source = GPSDSource(host: "127.0.0.1", port: Int(port))
        let inbox = GPSDInbox()
        source.start(onInput: inbox.append)
        defer { source.stop() }
        #expect(inbox.wait(timeout: 30) { $0.contains { $0.input.isLost } })
        // Let the backoff reach its cap, so this measures the worst case.
        Thread.sleep(forTimeInterval: 2.5)
        #expect(inbox.all.filter { $0.input.isLost }.count == 1, "lost must be reported once per outage")

        let feeder = NMEAFeeder(track: Self.track, udpPort: udpPort, interval: 0.1)
        feeder.start()
        defer { feeder.stop() }
        let gpsd = try GPSDHarness.udp(port: port, udpPort: udpPort)
        defer { gpsd.terminate() }
        let restarted = gpsd.spawnedAt
        let streaming = inbox.wait(timeout: 10) { $0.contains { $0.input.fix?.hasPosition == true } }
        #expect(streaming)
        let entries = inbox.all
        let connected = try #require(entries.first { $0.input.isConnected })
        let firstFix = try #require(entries.first { $0.input.fix?.hasPosition == true })
        let delay = seconds(from: restarted, to: firstFix.at)
        print("gpsd-reconnect absent-at-start (from gpsd spawn): connected after \(seconds(from: restarted, to: connected.at)) s, first fix after \(delay) s")
        #expect(delay < 3.0)
        let lost = try #require(entries.firstIndex { $0.input.isLost })
        let connectedIndex = try #require(entries.firstIndex { $0.input.isConnected })
        #expect(connectedIndex > lost)
    }

    @Test("gpsd killed mid-stream and restarted on the same port: .lost, then streaming within 3 s",
          arguments: [0.3, 2.5])
    func killedAndRestarted(downSeconds: Double) throws {
        let port = try FreePort.tcp(), udpPort = try FreePort.udp()
        var gpsd = try GPSDHarness.udp(port: port, udpPort: udpPort)
        let source = GPSDSource(host: "127.0.0.1", port: Int(port))
        let inbox = GPSDInbox()
        source.start(onInput: inbox.append)
        defer { source.stop() }
        let feeder = NMEAFeeder(track: Self.track, udpPort: udpPort, interval: 0.1)
        feeder.start()
        defer { feeder.stop() }
        let streaming = inbox.wait(timeout: 10) { $0.filter { $0.input.fix?.hasPosition == true }.count >= 3 }
        #expect(streaming)

        for round in 1...2 {
            let before = inbox.count
            gpsd.kill9()
            #expect(inbox.wait(timeout: 30) { $0.dropFirst(before).contains { $0.input.isLost } })
            Thread.sleep(forTimeInterval: downSeconds)
            gpsd = try GPSDHarness.udp(port: port, udpPort: udpPort)
            let restarted = gpsd.spawnedAt
            // Fixes gpsd wrote before it died can still be read after `before` (a loaded machine
            // reads the socket late): what counts is the first fix after the .lost.
            func sinceLost(_ entries: [GPSDInbox.Entry]) -> ArraySlice<GPSDInbox.Entry> {
                let recent = entries.dropFirst(before)
                guard let lost = recent.firstIndex(where: { $0.input.isLost }) else { return [] }
                return recent[lost...]
            }
            let again = inbox.wait(timeout: 10) { entries in
                sinceLost(entries).contains { $0.input.fix?.hasPosition == true }
            }
            #expect(again)
            let after = Array(inbox.all.dropFirst(before))
            let firstFix = try #require(sinceLost(inbox.all).first { $0.input.fix?.hasPosition == true })
            let delay = seconds(from: restarted, to: firstFix.at)
            print("gpsd-reconnect killed (down \(downSeconds) s, round \(round)): first fix \(delay) s after gpsd was started again")
            #expect(delay < 3.0)
            #expect(after.filter { $0.input.isLost }.count == 1)
            let lost = try #require(after.firstIndex { $0.input.isLost })
            let connected = try #require(after.firstIndex { $0.input.isConnected })
            #expect(lost < connected)
        }
        gpsd.terminate()
        #expect(inbox.fixes.allSatisfy { $0.hasNoNaN })
    }

    @Test("stop() returns promptly, connected or not, and nothing arrives after it")
    func stopIsPrompt() throws {
        // Connected and streaming.
        let gpsd = try GPSDHarness.udp()
        defer { gpsd.terminate() }
        let feeder = NMEAFeeder(track: Self.track, udpPort: gpsd.udpPort!, interval: 0.05)
        feeder.start()
        defer { feeder.stop() }
        let streaming = GPSDSource(host: "127.0.0.1", port: Int(gpsd.port))
        let inbox = GPSDInbox()
        streaming.start(onInput: inbox.append)
        #expect(inbox.wait(timeout: 10) { $0.contains { $0.input.fix != nil } })
        var t0 = ContinuousClock.now
        streaming.stop()
        let streamingStop = seconds(from: t0, to: ContinuousClock.now)
        #expect(streaming.isFinished)
        let count = inbox.count
        Thread.sleep(forTimeInterval: 0.3)
        #expect(inbox.count == count)

        // Waiting out a backoff on a port where nobody listens.
        let absent = GPSDSource(host: "127.0.0.1", port: Int(try FreePort.tcp()),
                                backoff: Backoff(initial: .seconds(30), cap: .seconds(30)))
        let inbox2 = GPSDInbox()
        absent.start(onInput: inbox2.append)
        #expect(inbox2.wait(timeout: 30) { $0.contains { $0.input.isLost } })
        t0 = ContinuousClock.now
        absent.stop()
        let backoffStop = seconds(from: t0, to: ContinuousClock.now)
        #expect(absent.isFinished)
        print("gpsd-stop: \(streamingStop) s while streaming, \(backoffStop) s during backoff")
        #expect(streamingStop < 1.0)
        #expect(backoffStop < 1.0)
    }

    @Test("events(): an AsyncStream that ends after stop()")
    func asyncStream() async throws {
        let gpsd = try GPSDHarness.udp()
        defer { gpsd.terminate() }
        let feeder = NMEAFeeder(track: Self.track, udpPort: gpsd.udpPort!, interval: 0.05)
        feeder.start()
        defer { feeder.stop() }
        let source = GPSDSource(host: "127.0.0.1", port: Int(gpsd.port))
        var sawConnected = false
        var fixes = 0
        for await input in source.events() {
            switch input {
            case .connected: sawConnected = true
            case .fix: fixes += 1
                if fixes == 5 { source.stop() }
            case .untimed, .lost: break
            }
        }
        #expect(sawConnected)
        #expect(fixes >= 5)
        #expect(source.isFinished)
    }

    @Test("backoff: 100 ms doubling to a 1 s cap, reset after a connection")
    func backoffSequence() {
        var b = Backoff.gpsdDefault
        let delays = (0..<7).map { _ in b.nextDelay() }
        #expect(delays == [.milliseconds(100), .milliseconds(200), .milliseconds(400),
                           .milliseconds(800), .seconds(1), .seconds(1), .seconds(1)])
        b.reset()
        #expect(b.nextDelay() == .milliseconds(100))
    }
}

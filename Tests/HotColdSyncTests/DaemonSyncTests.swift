import Foundation
import HotColdTestSupport
import Testing

/// The web API never stands in the engine's way: with every API request hanging, the daemon
/// still turns gpsd fixes into events.
@Suite struct DaemonSyncTests {
    @Test func daemonKeepsTrackingWhileTheServerHangs() async throws {
        let server = try ReferenceServer()
        defer { server.stop() }
        try await server.faults([["action": "hang", "count": 50]])

        let dir = try TemporaryDirectory("daemon-sync")
        defer { dir.remove() }
        let config = dir.path("hc.toml")
        try "[api]\nbase_url = \"\(server.url.absoluteString)\"\nsync_interval = 1\n"
            .write(toFile: config, atomically: true, encoding: .utf8)

        let gpsd = try GPSDHarness.udp()
        defer { gpsd.terminate() }
        let track = SyntheticTrack(start: (-30.30, 153.10), bearing: 90, speed: 10)
        let p = track.point(second: 30)
        let daemon = try DaemonProcess(arguments: ["--config", config, "--gpsd", "127.0.0.1:\(gpsd.port)",
                                                   "--target", "\(p.latitude),\(p.longitude),Ahead"])
        defer { daemon.stop() }
        let client = try daemon.connect()
        try client.send(#"{"cmd":"watch","classes":["ARRIVED"]}"#)
        _ = try client.read(class: "WATCH")
        try client.waitUntilGPSDConnected()
        // The daemon's first sync is now stuck on the server.
        #expect(try await server.wait(seconds: 15) { ($0["hanging"] as? Int ?? 0) >= 1 })

        let feeder = NMEAFeeder(track: track, udpPort: gpsd.udpPort!, interval: 0.05)
        feeder.start()
        defer { feeder.stop() }
        let arrived = try client.read(class: "ARRIVED", timeout: 20)
        #expect((arrived["target"] as? [String: Any])?["name"] as? String == "Ahead")
        #expect((try await server.state()["hanging"] as? Int ?? 0) >= 1, "the sync was still hanging")
        try await server.release()
    }
}

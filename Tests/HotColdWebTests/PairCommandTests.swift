import Foundation
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// `hotcold web pair`, `devices` and `revoke` (the built client) against a running hotcold-web
/// (the built binary) and hotcoldd: the link printed works once, and no longer after revoke.
@Suite("hotcold web pair through the built binaries", .offCooperativePool)
struct PairCommandTests {
    @Test("pair prints a QR code and a link that sets the cookie; devices lists it; revoke ends it")
    func pairListRevoke() async throws {
        try await onThread { try Self.pairListRevokeBlocking() }
    }

    static func pairListRevokeBlocking() throws {
        let daemon = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:1", "--target=-30.2748,153.1338,Pair Banana"])
        defer { daemon.stop() }
        let dir = try TemporaryDirectory("pair")
        defer { dir.remove() }
        let port = Int(try FreePort.tcp())
        let control = dir.path("control.sock")
        let web = try SpawnedProcess([Binaries.url("hotcold-web").path, "--socket", daemon.socketPath, "--port", "\(port)",
                                      "--state-dir", dir.path("state"), "--control-socket", control,
                                      "--daemon-config", dir.path("none.toml")], stderr: dir.path("web.stderr"))
        defer { web.terminate() }
        let deadline = Date().addingTimeInterval(30)
        while !FileManager.default.fileExists(atPath: control), Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        while (try? RawHTTP.getBlocking(port, "/app.css", seconds: 1).status) != 200, Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }

        let hotcold = Binaries.url("hotcold")
        let pair = try Subprocess.run(hotcold, ["web", "pair", "--control", control, "--name", "phone"])
        #expect(pair.status == 0, "\(pair.stderr)")
        let lines = pair.stdout.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.contains("█") || $0.contains("▀") || $0.contains("▄") }.count >= 15, "a QR code in the terminal")
        let url = try #require(lines.first { $0.hasPrefix("Open on the device: ") }?.dropFirst("Open on the device: ".count))
        #expect(url.hasPrefix("http://127.0.0.1:\(port)/pair?t="))
        #expect(pair.stdout.contains("it may change the hunt"), "root is a writer")
        #expect(pair.stderr.contains("opens only on this box") && pair.stderr.contains("public_url")
                    && pair.stderr.contains("[listen] address"),
                "a 127.0.0.1 link is called out, with the setting to change: \(pair.stderr)")
        let until = try #require(lines.first { $0.hasPrefix("Paired phone for ") })
        #expect(!until.contains("T") || !until.contains("Z;"), "the expiry is local time, not ISO-8601: \(until)")
        let path = String(url.dropFirst("http://127.0.0.1:\(port)".count))
        #expect(try RawHTTP.getBlocking(port, path).status == 303)

        let devices = try Subprocess.run(hotcold, ["web", "devices", "--control", control])
        #expect(devices.status == 0 && devices.stdout.contains("phone\troot\twriter"), "\(devices.stdout)")
        // Issue 31: a typo in the name is no success, and names the devices there are; a bad
        // name for a new device is a usage mistake (64), not "not allowed" (77).
        let typo = try Subprocess.run(hotcold, ["web", "revoke", "phonee", "--control", control])
        #expect(typo.status == 65 && typo.stderr.contains("no paired device is named phonee")
                && typo.stderr.contains("paired: phone"), "\(typo.status) \(typo.stderr)")
        let badName = try Subprocess.run(hotcold, ["web", "pair", "--control", control, "--name", "my phone!"])
        #expect(badName.status == 64 && badName.stderr.contains("1 to 40 letters"), "\(badName.status) \(badName.stderr)")
        let version = try Subprocess.run(Binaries.url("hotcold-web"), ["--version"])
        #expect(version.status == 0 && version.stdout.hasPrefix("hotcold-web "), "\(version.stdout)\(version.stderr)")
        let revoke = try Subprocess.run(hotcold, ["web", "revoke", "phone", "--control", control])
        #expect(revoke.status == 0 && revoke.stdout.contains("Revoked 1"))
        #expect(try RawHTTP.getBlocking(port, path).status == 403, "a revoked link no longer pairs")

        let token = String(url.split(separator: "=").last ?? "")
        let log = (try? String(contentsOfFile: dir.path("web.stderr"), encoding: .utf8)) ?? ""
        #expect(!token.isEmpty && !log.contains(token), "no token in hotcold-web's log")

        let missing = try Subprocess.run(hotcold, ["web", "pair", "--control", dir.path("nothing.sock")])
        #expect(missing.status == 69 && missing.stderr.contains("cannot reach hotcold-web"))
    }
}

@Suite("hotcold web pair's link", .offCooperativePool)
struct PairLinkTests {
    @Test("a public_url a phone can open prints no warning")
    func reachableLink() async throws {
        try await onThread {
            let daemon = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:1", "--target=-30.2748,153.1338,Link Banana"])
            defer { daemon.stop() }
            let dir = try TemporaryDirectory("pair-url")
            defer { dir.remove() }
            let port = Int(try FreePort.tcp())
            let control = dir.path("control.sock")
            try #"[listen]\#npublic_url = "http://10.42.0.1:8470"\#n"#.write(toFile: dir.path("web.toml"), atomically: true, encoding: .utf8)
            let web = try SpawnedProcess([Binaries.url("hotcold-web").path, "--config", dir.path("web.toml"), "--socket", daemon.socketPath,
                                          "--port", "\(port)", "--state-dir", dir.path("state"), "--control-socket", control,
                                          "--daemon-config", dir.path("none.toml")], stderr: dir.path("web.stderr"))
            defer { web.terminate() }
            let deadline = Date().addingTimeInterval(30)
            while !FileManager.default.fileExists(atPath: control), Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            let pair = try Subprocess.run(Binaries.url("hotcold"), ["web", "pair", "--control", control, "--name", "car", "--no-qr"])
            #expect(pair.status == 0, "\(pair.stderr)")
            #expect(pair.stdout.contains("Open on the device: http://10.42.0.1:8470/pair?t="), "\(pair.stdout)")
            #expect(!pair.stderr.contains("warning"), "\(pair.stderr)")
        }
    }
}

@Suite("hotcold-web's shutdown", .offCooperativePool)
struct ShutdownTests {
    @Test("SIGTERM ends hotcold-web promptly even with a live stream open (the stream is ended, the browser resumes)")
    func sigtermWithStreamOpen() async throws {
        let daemon = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:1", "--target=-30.2748,153.1338,Stop Banana"])
        defer { daemon.stop() }
        let dir = try TemporaryDirectory("stop")
        defer { dir.remove() }
        let port = Int(try FreePort.tcp())
        let web = try SpawnedProcess([Binaries.url("hotcold-web").path, "--socket", daemon.socketPath, "--port", "\(port)",
                                      "--state-dir", dir.path("state"), "--control-socket", dir.path("c.sock"),
                                      "--daemon-config", dir.path("none.toml")], stderr: dir.path("web.stderr"))
        defer { web.terminate() }
        let deadline = Date().addingTimeInterval(30)
        while (try? await RawHTTP.get(port, "/app.css", seconds: 1).status) != 200, Date() < deadline { try await Task.sleep(for: .milliseconds(100)) }
        // A live stream, open and flowing (its first status arrived) when the signal comes.
        let fd = try Sockets.connect(port: port)
        defer { close(fd) }
        Sockets.send(fd, "GET /events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
        let open = Sockets.read(fd, seconds: 30) { $0.contains("event: status") }
        try #require(open.text.contains("event: status") && !open.closed, "the stream never opened: \(open.text)")
        let t0 = Date()
        web.signal(SIGTERM)
        let status = web.wait(timeout: 30)
        #expect(status != nil, "hotcold-web still running 30 s after SIGTERM")
        #expect(Date().timeIntervalSince(t0) < 10, "a stop that waits on the daemon or a browser")
        #expect(Sockets.read(fd, seconds: 5).closed, "the stream was ended")
    }
}

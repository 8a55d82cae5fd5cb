import Foundation
import HotColdTestSupport
import HotColdDaemonTesting
import HotColdUnix
import Testing
@testable import HotColdWeb
#if canImport(Glibc)
import Glibc
#endif

/// devices.json is hotcold-web's own file and trusted only as such: one that others could have
/// written (world-writable, another owner, a link, a FIFO) is set aside with a sentence and
/// never honoured; a state directory others can write to is refused.
@Suite("devices.json trusted only as hotcold-web's own", .offCooperativePool)
struct DevicesFileTests {
    static let forgedToken = String(repeating: "F", count: 43)

    /// A well-formed file naming a root writer whose token the forger knows.
    static func forge(_ state: String) throws -> String {
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let now = BootClock.now()
        let forged = """
            {"devices":[{"accounted_at":{"boot":"\(now.boot)","seconds":\(now.seconds)},"created":"2026-01-01T00:00:00Z","lifetime":864000,\
            "name":"forged","remaining":864000,"token":"\(forgedToken)","uid":0,"user":"root","writer":true}],"format":2}
            """
        let file = state + "/devices.json"
        try forged.write(toFile: file, atomically: false, encoding: .utf8)
        chmod(file, 0o600)
        return file
    }

    @Test("a well-formed file of hotcold-web's own, 0600, is honoured (the forgery below differs only in who could write it)")
    func ownFileHonoured() throws {
        let dir = try TemporaryDirectory("devices-own")
        defer { dir.remove() }
        _ = try Self.forge(dir.path("state"))
        let store = try TokenStore(directory: dir.path("state"), maxDevices: 8)
        #expect(store.device(token: Self.forgedToken)?.name == "forged" && store.notices.isEmpty)
    }

    @Test("world-writable, group-writable, another owner's, a link, a FIFO, too large, not JSON: set aside as .unusable with a sentence, no pairing honoured",
          arguments: ["world", "group", "owner", "link", "fifo", "large", "garbage"])
    func unusableSetAside(_ how: String) throws {
        let dir = try TemporaryDirectory("devices-bad")
        defer { dir.remove() }
        let state = dir.path("state")
        let file = try Self.forge(state)
        var expected = ""
        switch how {
        case "world": chmod(file, 0o666); expected = "writable by others"
        case "group": chmod(file, 0o620); expected = "writable by others"
        case "owner": chown(file, 54321, 54321); expected = "owned by uid 54321"
        case "link":
            try FileManager.default.moveItem(atPath: file, toPath: dir.path("elsewhere.json"))
            symlink(dir.path("elsewhere.json"), file); expected = "symbolic link"
        case "fifo": unlink(file); mkfifo(file, 0o600); expected = "not a regular file"
        case "large":
            try String(repeating: " ", count: (1 << 20) + 1).write(toFile: file, atomically: false, encoding: .utf8); expected = "more than"
        default: try "{not json".write(toFile: file, atomically: false, encoding: .utf8); expected = "does not parse"
        }
        let store = try TokenStore(directory: state, maxDevices: 8)
        #expect(store.device(token: Self.forgedToken) == nil && store.all.isEmpty, "a forged pairing honoured (\(how))")
        #expect(store.notices.count == 1 && store.notices[0].contains(expected) && store.notices[0].contains("devices.json.unusable"),
                "\(store.notices)")
        #expect(TrustedFile.exists(file + ".unusable") && !TrustedFile.exists(file))
        // The next pairing is written afresh, private, through no link.
        _ = try store.pair(name: "phone", uid: 0, user: "root", writer: true, days: 1)
        var st = stat()
        #expect(lstat(file, &st) == 0 && st.st_mode & S_IFMT == S_IFREG && st.st_mode & 0o777 == 0o600)
        #expect(!TrustedFile.exists(file + ".tmp"))
        if how == "link" {
            #expect(try String(contentsOfFile: dir.path("elsewhere.json"), encoding: .utf8).contains("forged"), "the link's target untouched")
        }
    }

    @Test("a state directory others can write to, or another user's, is refused with a sentence")
    func directoryChecked() throws {
        let dir = try TemporaryDirectory("devices-dir")
        defer { dir.remove() }
        let open = dir.path("open")
        mkdir(open, 0o777)
        chmod(open, 0o777)
        #expect(throws: TokenStore.Failure.self) { try TokenStore(directory: open, maxDevices: 8) }
        do { _ = try TokenStore(directory: open, maxDevices: 8) } catch {
            #expect(error.description.contains("writable by others") && error.description.contains(open), "\(error)")
        }
        // Another user's directory (a link to it is the administrator's and is followed, as
        // systemd's DynamicUser= makes /var/lib/NAME one: the directory it leads to is judged).
        mkdir(dir.path("theirs"), 0o700)
        chown(dir.path("theirs"), 54321, 54321)
        symlink(dir.path("theirs"), dir.path("linked"))
        #expect(throws: TokenStore.Failure.self) { try TokenStore(directory: dir.path("linked"), maxDevices: 8) }
    }

    @Test("hotcold-web started on a world-writable devices.json says so, starts, and the forged cookie is no pairing")
    func processSaysSo() async throws {
        try await onThread {
            let daemon = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:1"])
            defer { daemon.stop() }
            let dir = try TemporaryDirectory("devices-proc")
            defer { dir.remove() }
            let file = try Self.forge(dir.path("state"))
            chmod(file, 0o666)
            let port = Int(try FreePort.tcp())
            let web = try SpawnedProcess([PairingFaketimeTests.binary, "--socket", daemon.socketPath, "--port", "\(port)",
                                          "--state-dir", dir.path("state"), "--control-socket", dir.path("c.sock"),
                                          "--daemon-config", dir.path("none.toml")], stderr: dir.path("web.stderr"))
            defer { web.terminate() }
            let deadline = Date().addingTimeInterval(30)
            while (try? RawHTTP.getBlocking(port, "/app.css", seconds: 1).status) != 200, Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
            let log = (try? String(contentsOfFile: dir.path("web.stderr"), encoding: .utf8)) ?? ""
            #expect(log.contains("writable by others") && log.contains("devices.json.unusable") && log.contains("no paired devices"), "\(log)")
            let s = try RawHTTP.getBlocking(port, "/session", headers: ["Cookie: hc_token=\(Self.forgedToken)"])
            #expect(!s.body.contains(#""access":"paired""#), "\(s.body)")
        }
    }
}

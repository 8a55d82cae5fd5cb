import Foundation
import HotColdTestSupport
import HotColdDaemonTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Who may pair, judged by the kernel's record of the pairing process: real Unix users (made
/// for the test) connect to the built hotcold-web's control socket through setpriv.
@Suite("pairing as other Unix users", .offCooperativePool, .enabled(if: UnixAccounts.available))
struct PairingPeersTests {
    @Test("outsider refused; a reader of the daemon's socket pairs read-only; a writer by the daemon's rule pairs a writer")
    func peersByCredentials() async throws {
        try await onThread { try Self.run() }
    }

    static func run() throws {
        let accounts = UnixAccounts()
        defer { accounts.remove() }
        let readers = try accounts.group("hcwr")
        let writers = try accounts.group("hcww")
        let outsider = try accounts.user("hcwo")
        let reader = try accounts.user("hcwa", groups: [readers])
        let writer = try accounts.user("hcwb", groups: [readers, writers])

        // A world-traversable directory (the control socket must be reachable by the users).
        let dir = "/tmp/hotcold-web-peers-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // The daemon's socket as hotcold-web judges readers by it: owner root, group `readers`.
        let socket = dir + "/hc.sock"
        _ = FileManager.default.createFile(atPath: socket, contents: nil, attributes: [.posixPermissions: 0o660])
        chown(socket, 0, try #require(accounts.gid(ofGroup: readers)))
        // The daemon's writer rule, read through the project's own loader.
        try "[socket]\nallowed_groups = [\"\(writers)\"]\n".write(toFile: dir + "/hotcoldd.toml", atomically: true, encoding: .utf8)
        let control = dir + "/control.sock"
        let port = Int(try FreePort.tcp())
        let web = try SpawnedProcess([Binaries.url("hotcold-web").path, "--socket", socket, "--port", "\(port)",
                                      "--state-dir", dir + "/state", "--control-socket", control,
                                      "--daemon-config", dir + "/hotcoldd.toml"], stderr: dir + "/web.stderr")
        defer { web.terminate() }
        let deadline = Date().addingTimeInterval(30)
        while !FileManager.default.fileExists(atPath: control), Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }

        func pair(as user: UnixUser) throws -> String {
            let py = """
                import socket, sys
                s = socket.socket(socket.AF_UNIX)
                s.connect(sys.argv[1])
                s.sendall(b'{"cmd":"pair","name":"phone"}\\n')
                data = b''
                while not data.endswith(b'\\n'):
                    c = s.recv(65536)
                    if not c: break
                    data += c
                print(data.decode())
                """
            let r = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/setpriv"),
                                       UnixAccounts.asUser(user.name) + ["/usr/bin/python3", "-c", py, control])
            return r.stdout + r.stderr
        }
        let o = try pair(as: outsider)
        #expect(o.contains(#""class":"ERROR""#) && o.contains("may not read"), "\(o)")
        let r = try pair(as: reader)
        #expect(r.contains(#""class":"PAIRED""#) && r.contains(#""writer":false"#) && r.contains(#""user":"\#(reader.name)""#), "\(r)")
        let w = try pair(as: writer)
        #expect(w.contains(#""class":"PAIRED""#) && w.contains(#""writer":true"#) && w.contains(#""user":"\#(writer.name)""#), "\(w)")
    }
}

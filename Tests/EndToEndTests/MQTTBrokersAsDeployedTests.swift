import Foundation
import HotColdTestSupport
import HotColdDaemonTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The bridge against brokers as people run them: users and an ACL, TLS with a CA of the
/// test's own (openssl) and a client certificate, and a club broker bridged to a central one.
@Suite(.offCooperativePool, .serialized, .enabled(if: MosquittoBroker.available))
struct MQTTBrokersAsDeployedTests {
    /// `mosquitto_sub` with any extra options, until it has `count` messages or `seconds` pass.
    func subscribe(_ port: UInt16, _ topic: String, count: Int = 1, seconds: Int = 15, _ options: [String] = []) throws -> String {
        try Subprocess.run(URL(fileURLWithPath: "/usr/bin/mosquitto_sub"),
                           ["-h", "127.0.0.1", "-p", String(port), "-t", topic, "-C", String(count), "-W", String(seconds), "-v"] + options).stdout
    }

    func run(_ tool: String, _ args: [String]) throws {
        let r = try Subprocess.run(URL(fileURLWithPath: tool), args)
        guard r.status == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "\(tool) \(args): \(r.stderr)"]) }
    }

    @Test func aPublishTheACLRefusesIsReportedByNameAndAWrongPasswordToo() throws {
        let dir = try TemporaryDirectory("mqtt-acl")
        defer { dir.remove() }
        try run("/usr/bin/mosquitto_passwd", ["-b", "-c", dir.path("passwd"), "jane", "jane-secret"])
        try run("/usr/bin/mosquitto_passwd", ["-b", dir.path("passwd"), "admin", "admin-secret"])
        // Each user writes only under its own prefix; admin reads everything.
        try "user jane\ntopic readwrite hotcold/jane/#\nuser admin\ntopic read #\n"
            .write(toFile: dir.path("acl"), atomically: true, encoding: .utf8)
        try "jane-secret\n".write(toFile: dir.path("jane.pw"), atomically: true, encoding: .utf8)
        try "wrong\n".write(toFile: dir.path("wrong.pw"), atomically: true, encoding: .utf8)
        let broker = try MosquittoBroker.start(extra: ["password_file \(dir.path("passwd"))", "acl_file \(dir.path("acl"))"],
                                               anonymous: false)
        defer { broker.stop() }
        let admin = ["-u", "admin", "-P", "admin-secret"]
        // jane under her own prefix: published.
        let own = try BridgeProcess(dir: dir, brokerPort: broker.port, device: "car", stateDirectory: dir.path("s1"), user: "jane",
                                    brokerExtra: [#"username = "jane""#, #"password_file = "\#(dir.path("jane.pw"))""#])
        defer { own.stop() }
        let seen = try subscribe(broker.port, "hotcold/jane/car/status", admin)
        #expect(seen.contains("hotcold/jane/car/status online"), "\(own.stderr)")
        // jane writing under bob's prefix: every publish refused, and the log says so by name.
        let other = try BridgeProcess(dir: dir, brokerPort: broker.port, device: "car", stateDirectory: dir.path("s2"), user: "bob",
                                      brokerExtra: [#"username = "jane""#, #"password_file = "\#(dir.path("jane.pw"))""#])
        defer { other.stop() }
        let deadline = Date().addingTimeInterval(10)
        while other.lines(containing: "refused to publish").isEmpty, Date() < deadline { usleep(100_000) }
        #expect(other.stderr.contains("the broker refused to publish on hotcold/bob/car/status: Not authorized (reason 135), check the broker's ACL for user jane"),
                "\(other.stderr)")
        // Said at start, before anything is refused: the login is not the topics' user.
        #expect(other.lines(containing: #"login "jane" is not [topics] user "bob""#).count == 1, "\(other.stderr)")
        #expect(own.lines(containing: "is not [topics] user").isEmpty, "\(own.stderr)")
        // A wrong password: refused at CONNACK, by name, once (retried with backoff).
        let wrong = try BridgeProcess(dir: dir, brokerPort: broker.port, device: "car3", stateDirectory: dir.path("s3"),
                                      brokerExtra: [#"username = "jane""#, #"password_file = "\#(dir.path("wrong.pw"))""#])
        defer { wrong.stop() }
        usleep(4_000_000)
        // mosquitto answers a wrong password with "Not authorized" (135).
        #expect(wrong.lines(containing: #"the broker refused the connection: Not authorized (reason 135) (check [broker] username = "jane" and password_file)"#).count == 1,
                "\(wrong.stderr)")
        #expect(wrong.lines(containing: "broker").count <= 3, "\(wrong.stderr)")
    }

    @Test func tlsWithATestCAAndAClientCertificate() throws {
        let dir = try TemporaryDirectory("mqtt-tls")
        defer { dir.remove() }
        func p(_ n: String) -> String { dir.path(n) }
        let ssl = "/usr/bin/openssl"
        try run(ssl, ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=hotcold test CA",
                      "-keyout", p("ca.key"), "-out", p("ca.crt")])
        try "subjectAltName=IP:127.0.0.1,DNS:localhost\n".write(toFile: p("san.ext"), atomically: true, encoding: .utf8)
        for (name, cn) in [("server", "127.0.0.1"), ("client", "car-client")] {
            try run(ssl, ["req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=\(cn)", "-keyout", p("\(name).key"), "-out", p("\(name).csr")])
            try run(ssl, ["x509", "-req", "-in", p("\(name).csr"), "-CA", p("ca.crt"), "-CAkey", p("ca.key"), "-CAcreateserial",
                          "-days", "2", "-out", p("\(name).crt")] + (name == "server" ? ["-extfile", p("san.ext")] : []))
        }
        // mosquitto runs as root here and reads the key itself; the bridge reads its own.
        let broker = try MosquittoBroker.start(extra: ["cafile \(p("ca.crt"))", "certfile \(p("server.crt"))",
                                                       "keyfile \(p("server.key"))", "require_certificate true"])
        defer { broker.stop() }
        let bridge = try BridgeProcess(dir: dir, brokerPort: broker.port, device: "tlscar", brokerExtra: [
            "[tls]", "enabled = true", #"ca_file = "\#(p("ca.crt"))""#, #"cert_file = "\#(p("client.crt"))""#, #"key_file = "\#(p("client.key"))""#])
        defer { bridge.stop() }
        let got = try subscribe(broker.port, "hotcold/t/tlscar/status",
                                ["--cafile", p("ca.crt"), "--cert", p("client.crt"), "--key", p("client.key")])
        #expect(got.contains("hotcold/t/tlscar/status online"), "\(bridge.stderr)\n\(broker.log.suffix(1500))")
        // Without a client certificate the broker refuses the handshake: said once, retried.
        let anonymous = try BridgeProcess(dir: dir, brokerPort: broker.port, device: "nocert", stateDirectory: p("s2"),
                                          brokerExtra: ["[tls]", "enabled = true", #"ca_file = "\#(p("ca.crt"))""#])
        defer { anonymous.stop() }
        usleep(4_000_000)
        #expect(anonymous.lines(containing: "broker").count <= 3, "\(anonymous.stderr)")
        #expect(anonymous.lines(containing: "cannot reach the broker").count == 1, "\(anonymous.stderr)")
    }

    @Test func aCarOnAClubBrokerIsSeenOnTheCentralBrokerItBridgesTo() throws {
        let dir = try TemporaryDirectory("mqtt-bridged")
        defer { dir.remove() }
        let central = try MosquittoBroker.start()
        defer { central.stop() }
        let club = try MosquittoBroker.start(extra: [
            "connection central", "address 127.0.0.1:\(central.port)", "topic hotcold/# out 1",
            "cleansession false", "bridge_protocol_version mqttv50", "try_private true"])
        defer { club.stop() }
        let bridge = try BridgeProcess(dir: dir, brokerPort: club.port, device: "clubcar")
        defer { bridge.stop() }
        let got = try subscribe(central.port, "hotcold/t/clubcar/status", seconds: 20)
        #expect(got.contains("hotcold/t/clubcar/status online"), "\(bridge.stderr)\n\(club.log.suffix(1500))")
    }
}

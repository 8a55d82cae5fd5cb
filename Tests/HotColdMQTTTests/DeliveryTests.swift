import Foundation
import HotColdConfig
@testable import HotColdMQTT
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

@Suite(.offCooperativePool) struct DeliveryTests {
    @Test func watermarkWaitsForEveryMessageOfEveryEarlierEvent() {
        var l = AckLedger(resumingAfter: 10)
        #expect(l.watermark == 10)
        l.handed(seq: 11, messages: 2)
        l.register(mid: 1, seq: 11)
        l.register(mid: 2, seq: 11)
        l.handed(seq: 12, messages: 1)
        l.register(mid: 3, seq: 12)
        l.handed(seq: 13, messages: 0)           // nothing to publish for it
        #expect(l.watermark == 10)
        l.acknowledged(mid: 3)                    // out of order
        #expect(l.watermark == 10)
        l.acknowledged(mid: 1)
        #expect(l.watermark == 10)
        l.acknowledged(mid: 2)
        #expect(l.watermark == 13)
        #expect(l.unacknowledged == 0)
    }

    @Test func anAckBeforeItsMidIsRegisteredCounts() {
        var l = AckLedger()
        #expect(l.watermark == nil)
        l.handed(seq: 1, messages: 1)
        l.acknowledged(mid: 5)
        #expect(l.watermark == 0)
        l.register(mid: 5, seq: 1)
        #expect(l.watermark == 1)
        #expect(l.unacknowledged == 0)
    }

    @Test func stateMessagesDoNotHoldTheWatermark() {
        var l = AckLedger(resumingAfter: 3)
        l.register(mid: 9, seq: nil)
        l.handed(seq: 4, messages: 1)
        l.register(mid: 10, seq: 4)
        l.acknowledged(mid: 10)
        #expect(l.watermark == 4)
        #expect(l.unacknowledged == 1)
    }

    @Test func rewindGoesBackToTheWatermark() {
        var l = AckLedger(resumingAfter: 3)
        l.handed(seq: 4, messages: 1)
        l.register(mid: 1, seq: 4)
        l.handed(seq: 5, messages: 1)
        l.rewind()
        #expect(l.lastHanded == 3)
        #expect(l.watermark == 3)
        l.acknowledged(mid: 1)                    // a late ack of a replayed event changes nothing
        #expect(l.watermark == 3)
    }

    @Test func ackStoreWritesThenRenamesAndReadsBack() throws {
        let dir = try TemporaryDirectory("ackstore")
        defer { dir.remove() }
        let store = AckStore(directory: dir.url.path)
        #expect(try store.load() == nil)
        try store.save(41)
        try store.save(42)
        #expect(try store.load() == 42)
        #expect(try String(contentsOfFile: store.path, encoding: .utf8) == "42\n")
        #expect(!FileManager.default.fileExists(atPath: store.path + ".tmp"))
        try "4x2\n".write(toFile: store.path, atomically: true, encoding: .utf8)
        #expect(throws: AckStore.Failure.self) { try store.load() }
    }

    @Test func configDefaultsAndErrorsNameKeyAndLine() throws {
        let c = try BridgeConfigLoader.load(path: TestData.repo("config/hotcold-mqtt.toml").path)
        #expect(c == BridgeConfiguration())
        let bad = "[broker]\nhost = \"localhost\"\nport = 70000\n"
        #expect(throws: ConfigError(file: "x.toml", line: 3, key: "broker.port", message: "expected a whole number from 1 to 65535, got 70000")) {
            try BridgeConfigLoader.parse(bad, file: "x.toml")
        }
        #expect(throws: ConfigError.self) { try BridgeConfigLoader.parse("[topics]\nlayout = \"fancy\"\n", file: "x") }
        #expect(throws: ConfigError.self) { try BridgeConfigLoader.parse("[topics]\ndevice = \"a/b\"\n", file: "x") }
        #expect(throws: ConfigError.self) { try BridgeConfigLoader.parse("[tls]\ncert_file = \"/c.pem\"\n", file: "x") }
        #expect(throws: ConfigError.self) { try BridgeConfigLoader.parse("[broker]\nbogus = 1\n", file: "x") }
        let ot = try BridgeConfigLoader.parse("[topics]\nlayout = \"owntracks\"\nuser = \"jane\"\ndevice = \"car\"\n", file: "x")
        let s = try BridgeSettings(config: ot, file: "x", environment: [:])
        #expect(s.topics.base == "owntracks/jane/car")
        #expect(s.trackerID == "ar")
        #expect(s.client.clientID == "hotcold-jane-car-owntracks")    // the layout keeps two bridges of one device apart
    }

    @Test func secretsComeFromSystemdCredentials() throws {
        let dir = try TemporaryDirectory("creds")
        defer { dir.remove() }
        try "s3cret\nignored\n".write(toFile: dir.path("mqtt-password"), atomically: true, encoding: .utf8)
        var c = BridgeConfiguration()
        c.topics.device = "car"
        c.broker.username = "car"
        c.broker.passwordFile = "credential:mqtt-password"
        let s = try BridgeSettings(config: c, file: "x", environment: ["CREDENTIALS_DIRECTORY": dir.url.path])
        #expect(s.client.password == "s3cret")
        #expect(throws: ConfigError.self) { try BridgeSettings(config: c, file: "x", environment: [:]) }
        c.broker.passwordFile = "credential:../etc/shadow"
        #expect(throws: ConfigError.self) { try BridgeSettings(config: c, file: "x", environment: ["CREDENTIALS_DIRECTORY": dir.url.path]) }
    }
}

import Foundation
@testable import HotColdMQTT
import HotColdDaemonTesting
import Testing

/// How failures become log lines: bounded, counted, and said once per outage.
@Suite(.offCooperativePool) struct OutageLogTests {
    @Test func identicalFailuresAreLoggedOnceThenAtPowersOfTenWithACount() {
        var r = RepeatedFailure()
        var lines: [String] = []
        for _ in 0..<1000 { if let l = r.failed("daemon busy") { lines.append(l) } }
        #expect(lines == ["daemon busy", "daemon busy (10 times in a row)", "daemon busy (100 times in a row)",
                          "daemon busy (1000 times in a row)"])
        #expect(r.recovered() == "after 1000 failures")
        #expect(r.recovered() == nil)
    }

    @Test func aNewKindOfFailureIsLoggedAndSaysHowOftenThePreviousOneHappened() {
        var r = RepeatedFailure()
        _ = r.failed("a")
        _ = r.failed("a")
        #expect(r.failed("b") == "b (the previous failure happened 2 times)")
        #expect(r.current == "b")
    }

    @Test func anOutageIsOneLineAndItsEndAnotherWhateverTheNumberOfAttempts() {
        var o = BrokerOutage()
        let t0 = ContinuousClock.now
        #expect(o.connected(at: t0) == nil)
        var lines = o.failed("The connection was lost. (code 7)", at: t0 + .seconds(60))
        #expect(lines.count == 1 && lines[0].hasPrefix("lost the broker: The connection was lost."))
        for i in 1...500 {
            lines += o.failed("connect to 127.0.0.1:1883: Connection refused", at: t0 + .seconds(60 + i))
        }
        // The first attempt's reason, then one line for the new reason; nothing per attempt.
        #expect(lines.count == 2)
        let back = o.connected(at: t0 + .seconds(600))
        #expect(back?.attempts == 501)
        #expect(back.map { abs($0.seconds - 540) < 0.001 } == true)
        #expect(!o.isOut)
    }

    @Test func distinctReasonsWithinOneOutageAreCapped() {
        var o = BrokerOutage()
        var lines: [String] = []
        for i in 0..<50 { lines += o.failed("reason \(i)", at: .now) }
        #expect(lines.count == BrokerOutage.maxReasons)
        #expect(lines[0].hasPrefix("cannot reach the broker: reason 0"))    // never connected yet
    }

    @Test func connectionsDroppedRightAfterEachConnackPointAtASharedClientID() {
        var o = BrokerOutage()
        var t = ContinuousClock.now
        var hints: [String] = []
        for _ in 0..<6 {
            _ = o.connected(at: t)
            t = t + .seconds(1)
            hints += o.failed("The connection was lost. (code 7)", at: t, clientID: "car").filter { $0.contains("client id") }
            t = t + .seconds(1)
        }
        #expect(hints.count == 1)
        #expect(hints.first?.contains("another client probably uses the same client id \"car\"") == true)
        // A connection that lasted is an ordinary outage: no hint.
        var calm = BrokerOutage()
        _ = calm.connected(at: t)
        #expect(calm.failed("lost", at: t + .seconds(3600), clientID: "car").count == 1)
    }

    @Test func withdrawnMessagesNoLongerHoldTheWatermarkAndTheEventIsAskedForAgain() {
        var l = AckLedger(resumingAfter: 10)
        l.handed(seq: 11, messages: 1)
        l.register(mid: 1, seq: 11)
        l.handed(seq: 12, messages: 2)
        l.register(mid: 2, seq: 12)               // the first of its two messages went out
        l.withdraw(seq: 12, unsent: 1)            // the second was refused by libmosquitto
        #expect(l.lastHanded == 11)               // so `since` asks for 12 again
        l.acknowledged(mid: 1)
        #expect(l.watermark == 11)                // the sent half of 12 still holds it
        l.acknowledged(mid: 2)
        #expect(l.watermark == 11)
    }

    @Test func theDefaultClientIDNamesTheLayoutSoTwoBridgesOfOneDeviceDiffer() {
        let a = BridgeSettings.defaultClientID(user: "jane", device: "ute", layout: .hotcold)
        let b = BridgeSettings.defaultClientID(user: "jane", device: "ute", layout: .owntracks)
        #expect(a == "hotcold-jane-ute-hotcold")
        #expect(a != b)
    }
}

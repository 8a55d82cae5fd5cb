import Foundation
@testable import HotColdDaemon
import HotColdProtocol
import HotColdDaemonTesting
import Testing

@Suite(.offCooperativePool) struct ServiceReportsTests {
    func report(_ name: String, _ state: String = "connected", acked: Int? = nil) -> ReportRequest {
        ReportRequest(service: name, state: state, ackedSeq: acked)
    }

    @Test func theLatestReportPerServiceIsShownAndMarkedGoneWithItsConnection() throws {
        let r = ServiceReports()
        #expect(r.snapshot() == nil)
        let bridge = ClientID(rawValue: 7), sync = ClientID(rawValue: 8)
        try r.record(report("hotcold-mqtt", acked: 5), from: bridge)
        try r.record(report("hotcold-sync", "idle"), from: sync)
        try r.record(report("hotcold-mqtt", "disconnected", acked: 9), from: bridge)
        var shown = try #require(r.snapshot())
        #expect(shown.map(\.service) == ["hotcold-mqtt", "hotcold-sync"])
        #expect(shown[0].state == "disconnected" && shown[0].ackedSeq == 9 && shown[0].connected)
        r.closed(bridge)
        shown = try #require(r.snapshot())
        #expect(!shown[0].connected && shown[0].ackedSeq == 9, "kept, with what it said last")
        #expect(shown[1].connected)
    }

    @Test func atMostSixteenNamesAndOnlyGoneOnesAreReplaced() throws {
        let r = ServiceReports()
        for i in 0..<ReportRequest.maxServices {
            try r.record(report("svc-\(i)"), from: ClientID(rawValue: UInt64(i)), at: Date(timeIntervalSince1970: Double(i)))
        }
        #expect(throws: ProtocolError.self) { try r.record(report("one-too-many"), from: ClientID(rawValue: 99)) }
        r.closed(ClientID(rawValue: 3))
        r.closed(ClientID(rawValue: 5))
        try r.record(report("one-too-many"), from: ClientID(rawValue: 99))
        let names = try #require(r.snapshot()).map(\.service)
        #expect(names.count == ReportRequest.maxServices)
        #expect(!names.contains("svc-3") && names.contains("svc-5"), "the oldest gone one made room")
    }
}

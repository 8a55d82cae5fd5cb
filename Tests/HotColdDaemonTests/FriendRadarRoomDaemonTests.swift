import Foundation
import HotColdCore
import HotColdProtocol
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// The radar's room through the daemon's socket: one club member sending fixes for 205
/// devices made up under their own prefix (which the shipped club ACL allows) holds a small
/// share of it, and a friend someone here follows always gets on.
@Suite(.offCooperativePool, .serialized) struct FriendRadarRoomDaemonTests {
    func object(_ line: String) throws -> [String: Any] { try #require(LineClient.object(line), "\(line)") }

    func fix(_ who: String, club: Bool, at time: Date) -> Request {
        .friendFix(FriendFixRequest(who: FriendID(parsing: who)!, name: who, time: time, lat: -30.1, lon: 153.1,
                                    accuracyM: 8, speedMps: 0, club: club))
    }

    func friends(_ daemon: InProcessDaemon) async throws -> [String] {
        let status = try WireCoding.decode(StatusReply.self, from: try await daemon.ask(.status))
        return (status.friends ?? []).map(\.who)
    }

    @Test func aClubMembersMadeUpDevicesNeverKeepAFollowedFriendOff() async throws {
        let daemon = try InProcessDaemon()
        let jane = try #require(FriendID(parsing: "jane/ute"))
        #expect(try object(try await daemon.ask(.follow(FollowRequest(who: jane))))["ok"] as? Bool == true)
        let now = Date()
        var admitted = 0
        var refusals: [[String: Any]] = []
        for i in 0..<205 {
            let reply = try object(try await daemon.ask(fix("mallory/fake\(i)", club: true, at: now.addingTimeInterval(Double(i) * 0.01))))
            if reply["ok"] as? Bool == true { admitted += 1 } else { refusals.append(reply) }
        }
        #expect(admitted == 10 && refusals.count == 195)
        #expect(refusals.allSatisfy { $0["code"] as? String == "quota" && $0["field"] as? String == "who"
            && ($0["message"] as? String)?.contains("club member mallory has 10 devices on the radar already") == true },
                "\(refusals.first ?? [:])")
        // The followed friend's fix is taken, and she is on the radar.
        #expect(try object(try await daemon.ask(fix("jane/ute", club: false, at: now.addingTimeInterval(3))))["ok"] as? Bool == true)
        var on = try await friends(daemon)
        #expect(on.count == 11 && on.contains("jane/ute") && on.filter { $0.hasPrefix("mallory/") }.count == 10, "\(on)")

        // 189 other members, one car each, fill it to 200. Kim, followed now, still gets on:
        // in place of the club member's car heard least recently (mallory's first).
        for i in 0..<189 {
            let reply = try object(try await daemon.ask(fix("member\(i)/car", club: true, at: now.addingTimeInterval(4 + Double(i) * 0.01))))
            #expect(reply["ok"] as? Bool == true, "\(reply)")
        }
        let late = try object(try await daemon.ask(fix("late/car", club: true, at: now.addingTimeInterval(7))))
        #expect(late["code"] as? String == "quota" && (late["message"] as? String)?.contains("the radar holds 200 friends already") == true, "\(late)")
        let kim = try #require(FriendID(parsing: "kim/car"))
        #expect(try object(try await daemon.ask(.follow(FollowRequest(who: kim))))["ok"] as? Bool == true)
        // Sent as a club member's still (a bridge that has not yet heard of the follow): the
        // daemon knows better.
        #expect(try object(try await daemon.ask(fix("kim/car", club: true, at: now.addingTimeInterval(8))))["ok"] as? Bool == true)
        on = try await friends(daemon)
        #expect(on.count == 200 && on.contains("kim/car") && on.contains("jane/ute") && !on.contains("mallory/fake0"), "\(on.count)")
        await daemon.stop()
    }
}

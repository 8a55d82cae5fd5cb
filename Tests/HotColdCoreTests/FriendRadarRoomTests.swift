import Foundation
import HotColdCore
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// Room on the radar: followed devices before club members', and one club member's own
/// devices bounded, so nobody inventing devices under their prefix keeps a friend off it.
@Suite(.offCooperativePool) struct FriendRadarRoomTests {
    static let here = Coordinate(latitude: -30.2963, longitude: 153.1135)

    static func fix(_ t: Double) -> Fix {
        Fix(time: Date(timeIntervalSince1970: 1_700_000_000 + t), coordinate: here, mode: .twoD, eph: 8, speed: 0)
    }

    @Test func oneMembersInventedDevicesHoldOnlyTheirShare() throws {
        var radar = FriendRadar()
        #expect(radar.config.maxFriends == 200 && radar.config.maxPerMember == 10)
        var refused: [FriendRadar.Refusal] = []
        for i in 0..<205 {
            do { _ = try radar.processFriend(id: "friend:mallory/fake\(i)", name: "F\(i)", fix: Self.fix(Double(i)),
                                             followed: false, member: "mallory") } catch { refused.append(error) }
        }
        #expect(radar.count == 10 && refused.count == 195)
        #expect(refused.allSatisfy { $0 == .memberFull("mallory", 10) })
        // The followed friend is admitted, and another member's car too.
        _ = try radar.processFriend(id: "friend:jane/ute", name: "Jane", fix: Self.fix(300), followed: true, member: "jane")
        _ = try radar.processFriend(id: "friend:ann/car", name: "Ann", fix: Self.fix(301), followed: false, member: "ann")
        #expect(radar.count == 12)
        // Those admitted are still heard.
        _ = try radar.processFriend(id: "friend:mallory/fake3", name: "F3", fix: Self.fix(302), followed: false, member: "mallory")
        // Followed, a member's devices are not bounded by the club's share (someone here chose them).
        for i in 0..<15 {
            _ = try radar.processFriend(id: "friend:mallory/followed\(i)", name: "M\(i)", fix: Self.fix(400 + Double(i)),
                                        followed: true, member: "mallory")
        }
        #expect(radar.count == 27)
    }

    @Test func aFollowedFriendDisplacesTheClubMemberHeardLeastRecently() throws {
        var radar = FriendRadar(config: .init(maxFriends: 200))
        // 200 club members' cars fill the radar; car 7 is the least recently heard.
        for i in 0..<200 {
            _ = try radar.processFriend(id: "friend:m\(i)/car", name: "M\(i)", fix: Self.fix(i == 7 ? 0 : 10 + Double(i)),
                                        followed: false, member: "m\(i)")
        }
        #expect(radar.count == 200)
        // Another club member's car: no room.
        #expect(throws: FriendRadar.Refusal.full(200)) {
            try radar.processFriend(id: "friend:late/car", name: "Late", fix: Self.fix(500), followed: false, member: "late")
        }
        // A followed friend: admitted in place of car 7.
        _ = try radar.processFriend(id: "friend:jane/ute", name: "Jane", fix: Self.fix(501), followed: true, member: "jane")
        let ids = Set(radar.snapshot().map(\.target.id))
        #expect(radar.count == 200 && ids.contains("friend:jane/ute") && !ids.contains("friend:m7/car"))
        #expect(radar.stats.displaced == 1)
        // A radar of followed friends only refuses the next followed one, naming the bound.
        var followed = FriendRadar(config: .init(maxFriends: 3))
        for i in 0..<3 { _ = try followed.processFriend(id: "friend:f\(i)/car", name: "F", fix: Self.fix(Double(i)), followed: true, member: "f\(i)") }
        #expect(throws: FriendRadar.Refusal.full(3)) {
            try followed.processFriend(id: "friend:f9/car", name: "F", fix: Self.fix(9), followed: true, member: "f9")
        }
    }

    /// A club member's device that someone here starts following is followed from its next fix:
    /// it no longer counts against the member's share, nor can it be displaced.
    @Test func aClubDeviceFollowedLaterCountsAsFollowed() throws {
        var radar = FriendRadar(config: .init(maxFriends: 2, maxPerMember: 1))
        _ = try radar.processFriend(id: "friend:bob/car", name: "Bob", fix: Self.fix(0), followed: false, member: "bob")
        #expect(throws: FriendRadar.Refusal.memberFull("bob", 1)) {
            try radar.processFriend(id: "friend:bob/van", name: "Bob", fix: Self.fix(1), followed: false, member: "bob")
        }
        _ = try radar.processFriend(id: "friend:bob/car", name: "Bob", fix: Self.fix(2), followed: true, member: "bob")
        _ = try radar.processFriend(id: "friend:bob/van", name: "Bob", fix: Self.fix(3), followed: false, member: "bob")
        #expect(radar.count == 2)
        // Full: a followed newcomer displaces the van (club-only), never the car (followed now).
        _ = try radar.processFriend(id: "friend:jane/ute", name: "Jane", fix: Self.fix(4), followed: true, member: "jane")
        #expect(Set(radar.snapshot().map(\.target.id)) == ["friend:bob/car", "friend:jane/ute"])
    }
}

import Foundation
import HotColdTestSupport
import HotColdDaemonTesting
import HotColdUnix
import Testing
@testable import HotColdWeb

/// Pairing links and sessions are measured on the boot clock (`BootClock`), never on the wall
/// clock: the store is given the instants it would read, so a link's minutes, a session's days,
/// a restart on the same boot and a reboot are all tried without waiting.
@Suite("pairing on the boot clock", .offCooperativePool)
struct PairingClockTests {
    static let boot = "boot-a"
    static func at(_ seconds: Double, boot: String = boot) -> BootInstant { BootInstant(boot: boot, seconds: seconds) }

    @Test("a link opens only on the boot it was made on, within its minutes of that boot's clock, whatever the wall clock says")
    func linkOnItsBoot() throws {
        let dir = try TemporaryDirectory("link-boot")
        defer { dir.remove() }
        let store = try TokenStore(directory: dir.path("state"), maxDevices: 8, now: Self.at(1000))
        let yearAhead = Date().addingTimeInterval(365 * 86_400)
        // Made while the wall clock ran a year ahead: nothing of that reaches the link.
        let inTime = try store.pair(name: "a", uid: 0, user: "root", writer: true, days: 1, linkMinutes: 10, now: Self.at(1000), wallNow: yearAhead)
        #expect(try store.redeem(link: inTime.link ?? "", now: Self.at(1000 + 599)) != nil, "599 s into a 10-minute link")
        let late = try store.pair(name: "b", uid: 0, user: "root", writer: true, days: 1, linkMinutes: 10, now: Self.at(1000))
        #expect(try store.redeem(link: late.link ?? "", now: Self.at(1000 + 601)) == nil, "601 s into a 10-minute link")
        let rebooted = try store.pair(name: "c", uid: 0, user: "root", writer: true, days: 1, linkMinutes: 10, now: Self.at(1000))
        #expect(try store.redeem(link: rebooted.link ?? "", now: Self.at(5, boot: "boot-b")) == nil, "a link from the last boot")
        #expect(try store.redeem(link: rebooted.link ?? "", now: Self.at(999)) == nil, "an instant before the link was made")
        // Reopened on the same boot (hotcold-web restarted), the link still opens within its minutes.
        let kept = try store.pair(name: "d", uid: 0, user: "root", writer: true, days: 1, linkMinutes: 10, now: Self.at(2000))
        let reopened = try TokenStore(directory: dir.path("state"), maxDevices: 8, now: Self.at(2100))
        #expect(try reopened.redeem(link: kept.link ?? "", now: Self.at(2200)) != nil)
    }

    @Test("a session counts down on the boot clock, is charged for a restart on the same boot, not for the time the box was off")
    func sessionOnTheBootClock() throws {
        let dir = try TemporaryDirectory("session-boot")
        defer { dir.remove() }
        let store = try TokenStore(directory: dir.path("state"), maxDevices: 8, now: Self.at(1000))
        let made = try store.pair(name: "phone", uid: 0, user: "root", writer: true, days: 1, now: Self.at(1000))
        let d = try #require(try store.redeem(link: made.link ?? "", now: Self.at(1000)))
        #expect(store.device(token: d.token, now: Self.at(1000 + 86_399)) != nil)
        #expect(store.device(token: d.token, now: Self.at(1000 + 86_401)) == nil, "a day of the boot clock later")
        // Counted down on disk an hour in; hotcold-web restarts two hours in on the same boot.
        try store.account(now: Self.at(1000 + 3600))
        let restarted = try TokenStore(directory: dir.path("state"), maxDevices: 8, now: Self.at(1000 + 7200))
        let r = try #require(restarted.device(token: d.token, now: Self.at(1000 + 7200)))
        #expect(abs(r.remaining(at: Self.at(1000 + 7200)) - (86_400 - 7200)) < 0.001, "the time between is charged")
        // After a reboot (another boot id), the time off is not charged: what was counted last stays.
        let rebooted = try TokenStore(directory: dir.path("state"), maxDevices: 8, now: Self.at(30, boot: "boot-b"))
        let b = try #require(rebooted.device(token: d.token, now: Self.at(30, boot: "boot-b")))
        #expect(abs(b.remaining(at: Self.at(30, boot: "boot-b")) - (86_400 - 3600)) < 0.001)
        #expect(rebooted.device(token: d.token, now: Self.at(30 + 86_400 - 3600 + 1, boot: "boot-b")) == nil,
                "and it ends once the rest has run on the new boot")
    }

    @Test("pairing a device with the wall clock 100 days ahead keeps every other pairing")
    func pairKeepsOthers() throws {
        let dir = try TemporaryDirectory("pair-keeps")
        defer { dir.remove() }
        let store = try TokenStore(directory: dir.path("state"), maxDevices: 8, now: Self.at(1000))
        let first = try store.pair(name: "phone", uid: 0, user: "root", writer: true, days: 90, now: Self.at(1000), wallNow: Date())
        _ = try store.pair(name: "car", uid: 0, user: "root", writer: true, days: 90, now: Self.at(1060),
                           wallNow: Date().addingTimeInterval(100 * 86_400))
        #expect(store.device(token: first.token, now: Self.at(1060)) != nil, "the phone is still paired")
        #expect(store.all.map(\.name) == ["phone", "car"])
    }

    @Test("an old devices.json (wall-clock dates) is carried over conservatively: unopened links and ended sessions dropped, none longer than its length")
    func oldFormat() throws {
        let dir = try TemporaryDirectory("old-devices")
        defer { dir.remove() }
        let state = dir.path("state")
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let wall = Date()
        func iso(_ d: Date) -> String { ISO8601DateFormatter().string(from: d) }
        let token = { (c: Character) in String(repeating: c, count: 43) }
        let old = """
            [{"token":"\(token("a"))","name":"phone","uid":1000,"user":"jane","writer":true,"created":"\(iso(wall.addingTimeInterval(-60 * 86_400)))","expires":"\(iso(wall.addingTimeInterval(30 * 86_400)))"},
             {"token":"\(token("b"))","name":"old","uid":1000,"user":"jane","writer":false,"created":"\(iso(wall.addingTimeInterval(-91 * 86_400)))","expires":"\(iso(wall.addingTimeInterval(-86_400)))"},
             {"token":"\(token("c"))","link":"\(token("l"))","linkExpires":"\(iso(wall.addingTimeInterval(300)))","name":"new","uid":0,"user":"root","writer":true,"created":"\(iso(wall))","expires":"\(iso(wall.addingTimeInterval(90 * 86_400)))"}]
            """
        let file = state + "/devices.json"
        try old.write(toFile: file, atomically: false, encoding: .utf8)
        chmod(file, 0o600)
        let store = try TokenStore(directory: state, maxDevices: 8, now: Self.at(50), wallNow: wall)
        #expect(store.all.map(\.name) == ["phone"])
        let phone = try #require(store.device(token: token("a"), now: Self.at(50)))
        #expect(abs(phone.remaining(at: Self.at(50)) - 30 * 86_400) < 2 && phone.lifetime == 90 * 86_400)
        #expect(store.notices.count == 1 && store.notices[0].contains("carried over"), "\(store.notices)")
        // Rewritten in the new format at once, private.
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.hasPrefix(#"{"devices":"#) && text.contains(#""format":2"#), "\(text.prefix(80))")
        #expect((try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int) == 0o600)
        // With the wall clock two years behind at the carrying over, a session still gets at most its length.
        try old.write(toFile: file, atomically: false, encoding: .utf8)
        let behind = try TokenStore(directory: state, maxDevices: 8, now: Self.at(50), wallNow: wall.addingTimeInterval(-2 * 365 * 86_400))
        #expect(behind.all.allSatisfy { $0.remaining(at: Self.at(50)) <= 90 * 86_400 }, "\(behind.all.map(\.remaining))")
        #expect(behind.all.count == 2, "two years behind, the ended session seems current, but only for its length: \(behind.all.map(\.name))")
    }
}

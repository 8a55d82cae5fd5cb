import Foundation
import HotColdCore
@testable import HotColdMQTT
import HotColdTestSupport
import HotColdDaemonTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `regions.json` is the bridge's own file, read as if someone else could have put something
/// in its place: bounded in size and in what it holds, never followed through a link, never
/// waited on, set aside with a line in the log when unusable; and the creation times it keeps
/// are forgotten in the order they were made, whatever the box's clock said when they were.
@Suite(.offCooperativePool) struct RegionStoreFileTests {
    /// A valid regions file with `count` stamps whose ids are `idLength` characters long.
    static func file(stamps count: Int, idLength: Int = 8, base: Int = 1_700_000_000) -> Data {
        var text = #"{"held":[],"stamps":{"#
        text.reserveCapacity(count * (idLength + 16))
        let pad = String(repeating: "x", count: max(0, idLength - 8))
        for i in 0..<count {
            if i > 0 { text += "," }
            text += "\"" + pad + String(format: "%08d", i) + "\":" + String(base - i)
        }
        text += #"},"version":1}"#
        return Data(text.utf8)
    }

    @Test func aHugeValidFileIsRefusedAtOnceAndSetAside() throws {
        let dir = try TemporaryDirectory("regions-huge"); defer { dir.remove() }
        let path = dir.path("regions.json")
        let huge = Self.file(stamps: 560_000, idLength: 110)
        #expect(huge.count > 64 << 20)
        try huge.write(to: URL(fileURLWithPath: path))
        var said: [String] = []
        let started = ContinuousClock.now
        let store = RegionStore(directory: dir.url.path) { said.append($0) }
        let took = ContinuousClock.now - started
        #expect(took < .milliseconds(200), "refused by its size, before reading: \(took)")
        #expect(said.count == 1 && said[0].contains(path) && said[0].contains("more than the \(RegionStore.fileLimit) allowed")
                && said[0].contains("set aside as \(path).unusable"), "\(said)")
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect((try? Data(contentsOf: URL(fileURLWithPath: path + ".unusable")))?.count == huge.count)
        // The store works from nothing, and writes a file it can read again.
        let t = store.stamp("api:banana", now: Date())
        try store.save()
        #expect(RegionStore(directory: dir.url.path).stamp("api:banana", now: Date().addingTimeInterval(99)) == t)
    }

    @Test func tooManyStampsAreTrimmedToTheBoundKeepingThoseOnThePhone() throws {
        let dir = try TemporaryDirectory("regions-many"); defer { dir.remove() }
        let path = dir.path("regions.json")
        let count = RegionStore.maximumStamps * 3
        var o = try #require(try JSONSerialization.jsonObject(with: Self.file(stamps: count)) as? [String: Any])
        // Two places on the phone, among the oldest made.
        let held = ["00029999", "00029998"].map {
            ["id": $0, "name": "Thing \($0)", "lat": -30.0, "lon": 150.0, "distance": 10.0] as [String: Any]
        }
        o["held"] = held
        o["phoneTopic"] = "owntracks/j/phone"
        o["app"] = "android"
        let data = try JSONSerialization.data(withJSONObject: o)
        #expect(data.count < RegionStore.fileLimit)
        try data.write(to: URL(fileURLWithPath: path))
        var said: [String] = []
        let store = RegionStore(directory: dir.url.path) { said.append($0) }
        #expect(said.count == 1 && said[0].contains("\(count) regions' creation times, more than \(RegionStore.maximumStamps)"), "\(said)")
        #expect(Set(store.held(phoneTopic: "owntracks/j/phone", app: .android).map(\.id)) == ["00029998", "00029999"])
        try store.save()
        let saved = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        let stamps = try #require(saved["stamps"] as? [String: Int])
        #expect(stamps.count == RegionStore.maximumStamps)
        // The phone's kept; of the rest, the newest made (in an old file: the latest times).
        #expect(stamps["00029999"] == 1_700_000_000 - 29_999 && stamps["00029998"] != nil)
        #expect(stamps["00000000"] == 1_700_000_000 && stamps["00009997"] != nil && stamps["00009998"] == nil)
    }

    @Test func heldPlacesBeyondTheBoundAreSentAnew() throws {
        let dir = try TemporaryDirectory("regions-held"); defer { dir.remove() }
        let place: [String: Any] = ["id": "p", "name": "P", "lat": 1.0, "lon": 2.0, "distance": 3.0]
        let o: [String: Any] = ["version": 1, "stamps": [:] as [String: Int], "phoneTopic": "t", "app": "ios",
                                "held": Array(repeating: place, count: RegionStore.maximumHeld + 1)]
        try JSONSerialization.data(withJSONObject: o).write(to: URL(fileURLWithPath: dir.path("regions.json")))
        var said: [String] = []
        let store = RegionStore(directory: dir.url.path) { said.append($0) }
        #expect(store.held(phoneTopic: "t", app: .ios).isEmpty && said.count == 1, "\(said)")
    }

    enum Planted: String, CaseIterable { case symlink, fifo, otherOwner, worldWritable, garbage }

    @Test(arguments: Planted.allCases)
    func anUnusableFileIsSetAsideWithALogLine(_ kind: Planted) throws {
        let dir = try TemporaryDirectory("regions-planted"); defer { dir.remove() }
        let path = dir.path("regions.json")
        let good = Self.file(stamps: 3)
        switch kind {
        case .symlink:
            try good.write(to: URL(fileURLWithPath: dir.path("elsewhere.json")))
            #expect(symlink(dir.path("elsewhere.json"), path) == 0)
        case .fifo:
            #expect(mkfifo(path, 0o600) == 0)      // nobody writes: a blocking read would hang here
        case .otherOwner:
            try good.write(to: URL(fileURLWithPath: path))
            #expect(chown(path, UnixAccounts.unusedUID(), 0) == 0)
        case .worldWritable:
            try good.write(to: URL(fileURLWithPath: path))
            #expect(chmod(path, 0o666) == 0)
        case .garbage:
            try Data("{not json".utf8).write(to: URL(fileURLWithPath: path))
        }
        var said: [String] = []
        let store = RegionStore(directory: dir.url.path) { said.append($0) }
        #expect(said.count == 1 && said[0].contains(path) && said[0].contains("set aside as \(path).unusable"), "\(said)")
        #expect(store.stamp("00000001", now: Date(timeIntervalSince1970: 1_800_000_000)) == 1_800_000_000, "nothing of it was used")
        var st = stat()
        #expect(lstat(path + ".unusable", &st) == 0 && lstat(path, &st) != 0)
        if kind == .symlink {
            #expect(try Data(contentsOf: URL(fileURLWithPath: dir.path("elsewhere.json"))) == good, "the link's target untouched")
        }
        // Saving writes a new file of its own, not through anything planted.
        try store.save()
        #expect(lstat(path, &st) == 0 && st.st_mode & S_IFMT == S_IFREG && st.st_mode & 0o777 == 0o600)
    }

    /// Stamps made while the box's clock was 5 years ahead look newest by their times; they
    /// are still forgotten first, being the first made.
    @Test func theFirstMadeAreForgottenFirstWhateverTheClockSaid() throws {
        let dir = try TemporaryDirectory("regions-order"); defer { dir.remove() }
        let store = RegionStore(directory: dir.url.path)
        let now = Date()
        let ahead = now.addingTimeInterval(5 * 365 * 86_400)
        let half = RegionStore.maximumStamps / 2
        for i in 0..<half { _ = store.stamp("early-\(i)", now: ahead) }
        for i in 0..<(RegionStore.maximumStamps - half) { _ = store.stamp("late-\(i)", now: now) }
        try store.save()
        // A restart in between: the order survives it.
        let again = RegionStore(directory: dir.url.path)
        let lateTimes = (0..<10).map { again.stamp("late-\($0)", now: now) }
        _ = again.stamp("newcomer", now: now)
        try again.save()
        let saved = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: again.path))) as? [String: Any])
        let stamps = try #require(saved["stamps"] as? [String: Int])
        #expect(stamps.count <= RegionStore.maximumStamps)
        #expect(stamps["early-0"] == nil && stamps["newcomer"] != nil)
        #expect((0..<10).map { stamps["late-\($0)"] } == lateTimes, "the later made are all kept")
        #expect(stamps.keys.filter { $0.hasPrefix("late-") }.count == RegionStore.maximumStamps - half)
    }

    /// The creation time's clock: the earlier of the box's and the receiver's (carried forward
    /// on the monotonic clock), so the box's clock set years either way never makes one in
    /// the future.
    @Test func aRegionsCreationTimeIsNeverInTheFutureAcrossClockJumps() {
        let truth = Date(timeIntervalSince1970: 1_760_000_000)
        var clock = RegionClock()
        #expect(clock.now(box: truth, monotonic: 5) == truth, "no fix yet: the box's clock")
        clock.noteFix(time: truth, arrived: 100)
        let fiveYears = 5 * 365 * 86_400.0
        // 30 s later the box's clock jumps 5 years ahead: the receiver's time, 30 s on.
        #expect(clock.now(box: truth.addingTimeInterval(30 + fiveYears), monotonic: 130) == truth.addingTimeInterval(30))
        // Or 5 years back: the box's (late, never ahead).
        #expect(clock.now(box: truth.addingTimeInterval(30 - fiveYears), monotonic: 130) == truth.addingTimeInterval(30 - fiveYears))
        // An older fix (out of order) does not move it back.
        clock.noteFix(time: truth.addingTimeInterval(-100), arrived: 140)
        #expect(clock.now(box: .distantFuture, monotonic: 150) == truth.addingTimeInterval(50))
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NIOConcurrencyHelpers

/// The regions' creation times and what the phone holds, kept in the bridge's state directory
/// (`regions.json`, written durably before a command that depends on it is sent).
///
/// **`tst`, a real creation time.** OwnTracks calls a waypoint's `tst` the "timestamp of
/// creation of region"; Android keys waypoints by it (a unique column: two waypoints with one
/// `tst` are one waypoint) and transitions carry it as `wtst`. So each place gets its own
/// when the bridge first needs one (first sent to the phone, or its first transition): the
/// current second — of the box's clock or the latest fix's, whichever is later, since a box
/// without a real-time clock boots in the past — or the latest earlier second no other place
/// has. Never in the future, one per place, the same for ever after (restarts included).
/// At most `maximumStamps` are kept; beyond that the oldest not on the phone are forgotten.
///
/// **What the phone holds** (with the phone topic and the app it was sent for): so a restart
/// sends nothing when nothing changed, and removes what an earlier run put there.
final class RegionStore: @unchecked Sendable {
    static let maximumStamps = 10_000

    struct Saved: Codable {
        var version = 1
        var stamps: [String: Int] = [:]
        var phoneTopic: String?
        var app: String?
        var held: [PhoneRegions.Place] = []
    }

    let directory: String
    var path: String { directory + "/regions.json" }
    private var saved = Saved()
    private var used: Set<Int> = []
    private let lock = NIOLock()

    /// Reads the file if there is one; a damaged one is set aside (`regions.json.bad`) and the
    /// store starts empty — a phone then gets its set anew, which is harmless.
    init(directory: String, log: (String) -> Void = { _ in }) {
        self.directory = directory
        guard let data = FileManager.default.contents(atPath: path) else { return }
        if let s = try? JSONDecoder().decode(Saved.self, from: data), s.version == 1 {
            saved = s
            used = Set(s.stamps.values)
        } else {
            try? FileManager.default.removeItem(atPath: path + ".bad")
            try? FileManager.default.moveItem(atPath: path, toPath: path + ".bad")
            log("\(path) cannot be read; set aside as \(path).bad: the phone's regions are sent anew")
        }
    }

    /// The creation time of `id`'s region, epoch seconds; a new one is made from `now` (see
    /// the type) and kept in memory until `save()`. `now`: the later of the box's clock and the
    /// latest fix's time.
    func stamp(_ id: String, now: Date) -> Int {
        lock.withLock {
            if let t = saved.stamps[id] { return t }
            var t = Int(now.timeIntervalSince1970.rounded(.down))
            while used.contains(t) { t -= 1 }
            if saved.stamps.count >= Self.maximumStamps { evict() }
            saved.stamps[id] = t
            used.insert(t)
            dirty = true
            return t
        }
    }

    private var dirty = false

    private func evict() {
        let held = Set(saved.held.map(\.id))
        let victims = saved.stamps.filter { !held.contains($0.key) }.sorted { $0.value < $1.value }
            .prefix(saved.stamps.count / 10 + 1)
        for (id, t) in victims {
            saved.stamps[id] = nil
            used.remove(t)
        }
    }

    /// What the phone holds, if it was sent to `phoneTopic` for `app` (else nothing: another
    /// phone or app starts empty).
    func held(phoneTopic: String, app: PhoneRegions.App) -> [PhoneRegions.Place] {
        lock.withLock { saved.phoneTopic == phoneTopic && saved.app == app.rawValue ? saved.held : [] }
    }

    func setHeld(_ places: [PhoneRegions.Place], phoneTopic: String, app: PhoneRegions.App) {
        lock.withLock {
            saved.held = places.sorted { $0.id < $1.id }
            saved.phoneTopic = phoneTopic
            saved.app = app.rawValue
            dirty = true
        }
    }

    /// Writes what changed, durably; a no-op when nothing did.
    func save() throws(AckStore.Failure) {
        let data: Data? = lock.withLock {
            guard dirty else { return nil }
            let e = JSONEncoder()
            e.outputFormatting = [.sortedKeys]
            return try? e.encode(saved)
        }
        guard let data else { return }
        try AckStore.writeDurably(Array(data), to: path, directory: directory)
        lock.withLock { dirty = false }
    }
}

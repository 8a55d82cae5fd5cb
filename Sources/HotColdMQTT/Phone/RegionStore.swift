#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HotColdUnix
import NIOConcurrencyHelpers

/// The regions' creation times and what the phone holds, kept in the bridge's state directory
/// (`regions.json`, written durably before a command that depends on it is sent).
///
/// **`tst`, a real creation time.** OwnTracks calls a waypoint's `tst` the "timestamp of
/// creation of region"; Android keys waypoints by it (a unique column: two waypoints with one
/// `tst` are one waypoint) and transitions carry it as `wtst`. So each place gets its own
/// when the bridge first needs one (first sent to the phone, or its first transition): the
/// current second (`RegionClock`: the earlier of the box's clock and the receiver's, so a box
/// clock set years ahead makes no creation time in the future) or the latest earlier second no
/// other place has. One per place, the same for ever after (restarts included). At most
/// `maximumStamps` are kept; beyond that the longest-kept not on the phone are forgotten —
/// in the order they were made, never by their times, which a clock set wrong and then right
/// would scramble.
///
/// **The file is read as untrusted** (`TrustedFile`): a link, a FIFO, another owner's file or
/// one larger than `fileLimit` is set aside (`regions.json.unusable`) with a log line, and the
/// store starts empty; more stamps or held places than the bounds are trimmed as they load.
///
/// **What the phone holds** (with the phone topic and the app it was sent for): so a restart
/// sends nothing when nothing changed, and removes what an earlier run put there.
final class RegionStore: @unchecked Sendable {
    static let maximumStamps = 10_000
    /// More places than a phone is ever sent at once.
    static let maximumHeld = 1_000
    /// The largest file read: `maximumStamps` ids of the protocol's longest (100 characters)
    /// fit with room to spare; `save` keeps what it writes within it.
    static let fileLimit = 2 << 20

    struct Saved: Codable {
        var version = 1
        var stamps: [String: Int] = [:]
        /// The order stamps were made in (a counter, not a clock): which to forget first.
        /// Absent in files of earlier versions: then their times' order, once.
        var made: [String: Int]?
        var nextMade: Int?
        var phoneTopic: String?
        var app: String?
        var held: [PhoneRegions.Place] = []
    }

    let directory: String
    var path: String { directory + "/regions.json" }
    private var saved = Saved()
    private var made: [String: Int] = [:]
    private var nextMade = 0
    private var used: Set<Int> = []
    private let lock = NIOLock()

    /// Reads the file if there is one; an unusable one is set aside (`regions.json.unusable`)
    /// with a log line and the store starts empty — a phone then gets its set anew, which is
    /// harmless.
    init(directory: String, log: (String) -> Void = { _ in }) {
        self.directory = directory
        let bytes: [UInt8]
        switch TrustedFile.read(path, limit: Self.fileLimit) {
        case .success(let b): bytes = b
        case .failure(.missing): return
        case .failure(let problem):
            setAside(because: "\(problem)", log: log)
            return
        }
        guard let s = try? JSONDecoder().decode(Saved.self, from: Data(bytes)), s.version == 1 else {
            setAside(because: "\(path): not a regions file this version can read", log: log)
            return
        }
        saved = s
        saved.made = nil
        saved.nextMade = nil
        // Files before the counter: their times' order is the best there is.
        let order = s.made ?? Dictionary(uniqueKeysWithValues: s.stamps.sorted { ($0.value, $0.key) < ($1.value, $1.key) }
            .enumerated().map { ($1.key, $0) })
        made = s.stamps.keys.reduce(into: [:]) { $0[$1] = order[$1] ?? -1 }
        nextMade = max(s.nextMade ?? 0, (made.values.max() ?? -1) + 1)
        if saved.held.count > Self.maximumHeld {
            log("\(path): \(saved.held.count) places on the phone, more than \(Self.maximumHeld): the phone's regions are sent anew")
            saved.held = []
            dirty = true
        }
        if saved.stamps.count > Self.maximumStamps {
            let before = saved.stamps.count
            evict(down: Self.maximumStamps)
            log("\(path): \(before) regions' creation times, more than \(Self.maximumStamps): the \(before - saved.stamps.count) longest kept are forgotten")
            dirty = true
        }
        used = Set(saved.stamps.values)
    }

    private func setAside(because problem: String, log: (String) -> Void) {
        let aside = TrustedFile.setAside(path)
        log("\(problem); " + (aside.map { "set aside as \($0)" } ?? "left where it is, not read")
            + ": the phone's regions are sent anew")
    }

    /// The creation time of `id`'s region, epoch seconds; a new one is made from `now` (see
    /// the type) and kept in memory until `save()`. `now`: `RegionClock`'s.
    func stamp(_ id: String, now: Date) -> Int {
        lock.withLock {
            if let t = saved.stamps[id] { return t }
            let seconds = now.timeIntervalSince1970.rounded(.down)
            var t = seconds.isFinite && abs(seconds) < 1e15 ? Int(seconds) : 0
            while used.contains(t) { t -= 1 }
            if saved.stamps.count >= Self.maximumStamps { evict(down: saved.stamps.count - saved.stamps.count / 10 - 1) }
            saved.stamps[id] = t
            made[id] = nextMade
            nextMade += 1
            used.insert(t)
            dirty = true
            return t
        }
    }

    private var dirty = false

    /// Forgets the longest-kept stamps of places not on the phone until `count` are left (or
    /// only the phone's are).
    private func evict(down count: Int) {
        let held = Set(saved.held.map(\.id))
        let excess = saved.stamps.count - max(0, count)
        guard excess > 0 else { return }
        let victims = saved.stamps.keys.filter { !held.contains($0) }
            .sorted { (made[$0] ?? -1, $0) < (made[$1] ?? -1, $1) }.prefix(excess)
        guard !victims.isEmpty else { return }
        for id in victims {
            if let t = saved.stamps.removeValue(forKey: id) { used.remove(t) }
            made[id] = nil
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
        let encoded: Result<Data, AckStore.Failure>? = lock.withLock {
            guard dirty else { return nil }
            let e = JSONEncoder()
            e.outputFormatting = [.sortedKeys]
            // What is written can be read back: over the bound, the longest kept go first.
            while true {
                var out = saved
                out.made = made
                out.nextMade = nextMade
                let data: Data
                do { data = try e.encode(out) } catch {
                    return .failure(AckStore.Failure(description: "\(path): cannot encode: \(error)"))
                }
                if data.count <= Self.fileLimit { return .success(data) }
                let before = saved.stamps.count
                evict(down: before - before / 10 - 1)
                if saved.stamps.count == before {
                    return .failure(AckStore.Failure(description: "\(path): \(data.count) bytes, more than the \(Self.fileLimit) allowed"))
                }
            }
        }
        guard let encoded else { return }
        let data = try encoded.get()
        do { try TrustedFile.write(Array(data), to: path, mode: 0o600) } catch {
            throw AckStore.Failure(description: "\(error)")
        }
        lock.withLock { dirty = false }
    }
}

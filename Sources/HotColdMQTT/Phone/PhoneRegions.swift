#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HotColdCore
import HotColdProtocol

/// Which places the phone holds as OwnTracks regions, and the commands that bring it there.
///
/// **The set, with hysteresis.** Of the tracked targets (STATUS: the 50 nearest, each with its
/// own coordinates), the phone holds `count` (20: iOS monitors at most 20 regions). Let D be
/// the distance of the `count`-th nearest. A held place leaves only when it is clearly not
/// among the nearest: farther than D × (1 + `margin`) + `marginMetres` (10 % + 100 m), or no
/// longer tracked. A free slot takes the nearest place not held (it is then among the nearest
/// `count`). A place not held takes a held one's slot only when it is clearly nearer: its
/// distance × (1 + margin) + marginMetres is under the farthest held one's. So two places
/// equally far at the boundary never trade places on fix noise, and a set that changes goes
/// out at most once per `minInterval` seconds.
///
/// **The commands** (`<phone>/cmd`, QoS 1, not retained). `setWaypoints` *merges* into the
/// phone's regions in both apps, and each app removes differently:
/// - Android (`app = .android`, also right for an iPhone): keys waypoints by `tst` (a unique
///   column; a waypoint sent again with the same `tst` replaces the old one) and ignores one
///   with an invalid `lat`/`lon`; the only removal it honours from afar is `clearWaypoints`
///   (2.5.0 on). So when a place leaves: `clearWaypoints`, then `setWaypoints` with the whole
///   set; when places only join: `setWaypoints` with the newcomers. iOS honours both commands
///   the same way (16.4.3 on). The phone's own hand-made regions are cleared with them.
/// - iOS (`app = .ios`): keys regions by `rid` and deletes the region whose waypoint comes
///   with an out-of-range `lat`/`lon` (the booklet's way), and leaves a region sent again
///   unchanged alone: one `setWaypoints` with the newcomers and the leavers (`lat`/`lon`
///   -1000000), nothing cleared. (Android would keep the leavers: use it for iPhones only.)
///
/// A region's centre is the place's own coordinate; a place whose coordinate changed (edited)
/// is sent again. Pure: the caller gives the candidates and its monotonic seconds.
public struct PhoneRegions: Sendable, Equatable {
    enum App: String, Sendable, CaseIterable {
        case android, ios
    }

    struct Settings: Sendable, Equatable {
        var count = 20
        var radius = 100
        var app: App = .android
        /// Seconds at least between two changes of the set sent to the phone.
        var minInterval: Double = 60
        var margin = 0.1
        var marginMetres = 100.0

        init(count: Int = 20, radius: Int = 100, app: App = .android, minInterval: Double = 60) {
            self.count = count
            self.radius = radius
            self.app = app
            self.minInterval = minInterval
        }
    }

    /// A place the phone may hold: where it is, how far from the car.
    public struct Place: Sendable, Equatable, Codable {
        var id: String
        var name: String
        public var lat: Double
        public var lon: Double
        var distance: Double

        public init(id: String, name: String, at: Coordinate, distance: Double) {
            self.id = id
            self.name = name
            lat = at.latitude
            lon = at.longitude
            self.distance = distance
        }

        var coordinate: Coordinate { Coordinate(latitude: lat, longitude: lon) }
    }

    /// What one change sends: the leavers, the newcomers (and the moved), and the whole set.
    struct Change: Sendable, Equatable {
        var removed: [Place]
        var added: [Place]
        var set: [Place]

        init(removed: [Place], added: [Place], set: [Place]) {
            self.removed = removed
            self.added = added
            self.set = set
        }
    }

    var settings: Settings
    /// What the phone holds (as last sent), by id.
    private(set) var held: [String: Place]
    private var lastChange: Double?

    init(settings: Settings, held: [Place] = []) {
        self.settings = settings
        self.held = Dictionary(held.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// The set the phone should hold now, from `candidates` (any order), with hysteresis
    /// against what it holds.
    func wanted(_ candidates: [Place]) -> [Place] {
        let sorted = candidates.sorted { ($0.distance, $0.id) < ($1.distance, $1.id) }
        let n = settings.count
        guard !sorted.isEmpty, n > 0 else { return [] }
        let boundary = sorted.count >= n ? sorted[n - 1].distance : .infinity
        let keepWithin = boundary * (1 + settings.margin) + settings.marginMetres
        let byID = Dictionary(sorted.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        // Held places still tracked and not clearly out, at their current distance.
        var keep = held.keys.compactMap { byID[$0] }.filter { $0.distance <= keepWithin }
            .sorted { ($0.distance, $0.id) < ($1.distance, $1.id) }
        var taken = Set(keep.map(\.id))
        var others = sorted.filter { !taken.contains($0.id) }[...]
        // Free slots: the nearest places not held.
        while keep.count < n, let c = others.first {
            others = others.dropFirst()
            keep.append(c)
            taken.insert(c.id)
        }
        keep.sort { ($0.distance, $0.id) < ($1.distance, $1.id) }
        // A place clearly nearer than the farthest held one takes its slot.
        while let c = others.first, let far = keep.last,
              c.distance * (1 + settings.margin) + settings.marginMetres < far.distance {
            others = others.dropFirst()
            keep.removeLast()
            keep.append(c)
            keep.sort { ($0.distance, $0.id) < ($1.distance, $1.id) }
        }
        return keep
    }

    /// What to send now, if anything: the change from what the phone holds to `wanted`,
    /// when it differs and the last change is `minInterval` old (or there was none). The
    /// caller sends it and then calls `sent`.
    func change(_ candidates: [Place], now: Double) -> Change? {
        if let last = lastChange, now - last < settings.minInterval { return nil }
        let want = wanted(candidates)
        let wantIDs = Set(want.map(\.id))
        let removed = held.values.filter { !wantIDs.contains($0.id) }.sorted { $0.id < $1.id }
        // New, or its place moved (a region's centre follows its place, and nothing else).
        let added = want.filter { w in
            guard let h = held[w.id] else { return true }
            return h.coordinate.distance(to: w.coordinate) > 0.5 || h.name != w.name
        }
        guard !removed.isEmpty || !added.isEmpty else { return nil }
        return Change(removed: removed, added: added, set: want)
    }

    /// The change went out: the phone holds its set now.
    mutating func sent(_ c: Change, now: Double) {
        held = Dictionary(c.set.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        lastChange = now
    }

    /// Forget what the phone holds (a new phone topic, another app).
    mutating func forget() {
        held = [:]
        lastChange = nil
    }
}

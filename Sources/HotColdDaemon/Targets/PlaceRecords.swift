import HotColdCore

/// The stored places as the daemon uses them: targets looked up by id or chosen for a roam,
/// and the visits to them (arrivals, departures, where the device still is). The store, when
/// there is one.
///
/// Kept as a protocol so the shell runs (and is tested) with nothing but coordinates given on
/// the command line, and so the store's types stay out of the engine host.
protocol PlaceRecords: Sendable {
    /// A stored place by id (`GC2T9RW`, a Big Thing id, ...).
    func target(id: String) throws -> Target?
    /// Places to roam among (never one that is gone).
    func roamTargets(_ filter: RoamFilter) throws -> [Target]
    /// Why each of these places that is gone is gone (`demolished`, `withdrawn`, …), by id.
    func goneReasons(ids: [String]) throws -> [String: String]
    /// Records an automatic visit for an arrival; idempotent for the same episode.
    func recordArrival(targetID: String, user: String, at time: Double, episode: String) throws
    /// Records the departure on the open visit (idempotent: a second call closes nothing).
    func recordDeparture(targetID: String, user: String, at time: Double) throws
    /// Stored places the user is still at (visits with no departure), restored at start.
    func openArrivals(user: String) throws -> Set<String>
    /// Whether a failed write may succeed later (database busy or full): then it is retried.
    func isTransient(_ error: any Error) -> Bool
}

/// Which stored places roam mode follows.
struct RoamFilter: Sendable, Equatable {
    var kinds: [TargetKind]
    var favouritesOnly: Bool
    var unseenOnly: Bool
    var user: String

    init(kinds: [TargetKind] = [], favouritesOnly: Bool = false, unseenOnly: Bool = false, user: String) {
        self.kinds = kinds
        self.favouritesOnly = favouritesOnly
        self.unseenOnly = unseenOnly
        self.user = user
    }
}

/// Parses a hunt target given as text: `LAT,LON[,NAME]`, or a stored place id.
enum TargetSpec {
    static func parse(_ text: String, index: Int, places: (any PlaceRecords)?) throws -> Target {
        if let point = try Target(point: text, index: index) { return point }
        guard let places else {
            throw TargetSpecError("\(text): expected LAT,LON[,NAME] (no store is open to look up place ids)")
        }
        guard let t = try places.target(id: text) else { throw TargetSpecError("\(text): no such place") }
        return t
    }
}

struct TargetSpecError: Error, CustomStringConvertible {
    public var description: String
    init(_ d: String) { description = d }
}

import Foundation

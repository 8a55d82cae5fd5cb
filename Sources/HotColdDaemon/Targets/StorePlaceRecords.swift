import Foundation
import HotColdCore
import HotColdStore

/// The daemon's view of the store: places to hunt and roam among, and visits on arrival.
struct StorePlaceRecords: PlaceRecords {
    let store: Store

    init(store: Store) { self.store = store }

    func target(id: String) throws -> Target? {
        try store.place(id: id)?.place.target
    }

    func roamTargets(_ filter: RoamFilter) throws -> [Target] {
        let kinds = filter.kinds.isEmpty ? nil : Set(filter.kinds)
        return try store.targets(filter: TargetFilter(
            kinds: kinds,
            favouritesOf: filter.favouritesOnly ? filter.user : nil,
            unseenBy: filter.unseenOnly ? filter.user : nil))
    }

    func goneReasons(ids: [String]) throws -> [String: String] {
        try store.goneReasons(ids: ids)
    }

    func recordArrival(targetID: String, user: String, at time: Double, episode: String) throws {
        _ = try store.recordArrival(placeID: targetID, user: user, at: Date(timeIntervalSince1970: time),
                                    episode: episode)
    }

    func recordDeparture(targetID: String, user: String, at time: Double) throws {
        _ = try store.recordDeparture(placeID: targetID, user: user, at: Date(timeIntervalSince1970: time))
    }

    func openArrivals(user: String) throws -> Set<String> {
        try store.openArrivals(user: user)
    }

    func isTransient(_ error: any Error) -> Bool { Store.isTransient(error) }
}

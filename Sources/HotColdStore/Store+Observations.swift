import Foundation
import GRDB
import HotColdCore
import HotColdFormats

extension Store {
    /// Records an observation made by the user now (id: a fresh UUID).
    @discardableResult
    public func addObservation(classification: ObservationClassification, title: String,
                               description: String?, date: Date, coordinate: Coordinate?,
                               user: String) throws -> Observation {
        if let c = coordinate, !c.isValid { throw StoreError.invalidCoordinate(c.description) }
        let o = Observation(id: "obs:\(UUID().uuidString.lowercased())", user: user,
                            classification: classification, title: title, description: description,
                            observedAt: date, coordinate: coordinate)
        try write { db in
            try Store.requireRoom(db, quota: "observations_per_user", limit: quotas.observationsPerUser,
                                  user: user, sql: Quota.observations)
            try o.insert(db)
        }
        return o
    }

    /// Observations, oldest first; every user's unless `user` is given.
    public func observations(user: String? = nil) throws -> [Observation] {
        try database.read { db in
            var req = Observation.order(Column("observed_at"), Column("id"))
            if let user { req = req.filter(Column("user") == user) }
            return try req.fetchAll(db)
        }
    }
}

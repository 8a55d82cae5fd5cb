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

    /// Corrects one of `user`'s own observations: the fields given change (an empty
    /// `description` removes the notes), when and where it was seen stay. Another user's is
    /// refused (``StoreError/notOwner(id:owner:user:)``), as a custom location is.
    public func amendObservation(id: String, classification: ObservationClassification?, title: String?,
                                 description: String?, by user: String) throws -> Observation {
        try write { db in
            var o = try Store.ownObservation(db, id: id, user: user)
            if let classification { o.classification = classification }
            if let title { o.title = title }
            if let description { o.description = description.isEmpty ? nil : description }
            try o.update(db)
            return o
        }
    }

    /// Removes one of `user`'s own observations; what it was.
    public func deleteObservation(id: String, by user: String) throws -> Observation {
        try write { db in
            let o = try Store.ownObservation(db, id: id, user: user)
            try o.delete(db)
            return o
        }
    }

    private static func ownObservation(_ db: Database, id: String, user: String) throws -> Observation {
        guard let o = try Observation.fetchOne(db, key: id) else { throw StoreError.noSuchObservation(id) }
        guard o.user == user else { throw StoreError.notOwner(id: id, owner: o.user, user: user) }
        return o
    }
}

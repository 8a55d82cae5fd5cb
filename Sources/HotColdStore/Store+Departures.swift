import Foundation
import GRDB
import HotColdFormats

extension Store {
    /// Records that the device left a place: closes the user's open automatic visits there
    /// (those with no departure yet). Returns how many it closed; 0 when none was open (the
    /// departure was already stored, or the visit was forgotten with `markUnseen`), which
    /// makes a retried departure harmless.
    ///
    /// The arrival time is not compared: receivers may be 1024 weeks out and later corrected,
    /// and a departure always ends whatever visit is open.
    ///
    /// ```swift
    /// try store.recordArrival(placeID: "GC2T9RW", user: "alice", at: t0, episode: "GC2T9RW@…")
    /// try store.recordDeparture(placeID: "GC2T9RW", user: "alice", at: t1)   // 1
    /// ```
    @discardableResult
    public func recordDeparture(placeID: String, user: String, at time: Date) throws -> Int {
        try write { db in try Store.recordDeparture(db, placeID: placeID, user: user, at: time) }
    }

    /// The same, inside a caller's transaction.
    public static func recordDeparture(_ db: Database, placeID: String, user: String, at time: Date) throws -> Int {
        try Visit
            .filter(Column("place_id") == placeID && Column("user") == user
                    && Column("method") == VisitMethod.automatic.rawValue && Column("departed_at") == nil)
            .updateAll(db, Column("departed_at").set(to: StoredDate.string(time)))
    }

    /// The places the user is "at": automatic visits whose departure has not been recorded.
    /// The daemon hands these to the engine at start, so a restart is no new arrival.
    ///
    /// ```swift
    /// let here = try store.openArrivals(user: "alice")   // ["halans:d0577fb8cf"]
    /// ```
    public func openArrivals(user: String) throws -> Set<String> {
        try database.read { db in
            Set(try String.fetchAll(db, Visit
                .select(Column("place_id"), as: String.self)
                .filter(Column("user") == user && Column("method") == VisitMethod.automatic.rawValue
                        && Column("departed_at") == nil)))
        }
    }
}

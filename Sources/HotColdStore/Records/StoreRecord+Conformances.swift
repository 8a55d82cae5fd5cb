import GRDB
import HotColdFormats

// The store's records are plain values of HotColdFormats (parsers and writers use them without
// a database); here they become table records, with the columns and row ids only SQL needs.
extension BigThingDetails: StoreRecord {}
extension Favourite: StoreRecord {}
extension GeocacheDetails: StoreRecord {}
extension LocationDetails: StoreRecord {}
extension Note: StoreRecord {}
extension Observation: StoreRecord {}
extension OutboxItem: StoreRecord {
    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    public enum Columns {
        public static let id = Column("id")
        public static let state = Column("state")
        public static let nextAttemptAt = Column("next_attempt_at")
        public static let notBefore = Column("not_before")
    }
}
extension Place: StoreRecord {
    public enum Columns {
        public static let id = Column("id")
        public static let kind = Column("kind")
        public static let name = Column("name")
        public static let latitude = Column("latitude")
        public static let longitude = Column("longitude")
        public static let active = Column("active")
        public static let searchText = Column("search_text")
    }
}
extension Rating: StoreRecord {}
extension Submission: StoreRecord {
    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}
extension Visit: StoreRecord {
    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}
extension WaypointDetails: StoreRecord {}

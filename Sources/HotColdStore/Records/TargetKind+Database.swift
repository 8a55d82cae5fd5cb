import GRDB
import HotColdCore
import HotColdFormats

// Kinds are stored as their raw text ("bigthing"), not as JSON, so SQL can filter on them.
extension TargetKind: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { rawValue.databaseValue }
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> TargetKind? {
        String.fromDatabaseValue(dbValue).map(TargetKind.init(rawValue:))
    }
}

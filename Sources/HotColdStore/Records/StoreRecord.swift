import GRDB
import HotColdFormats

/// The conventions every table record of the store follows: Codable structs whose
/// camelCase properties map to snake_case columns.
///
/// ```swift
/// struct Example: StoreRecord { static let databaseTableName = "example"; var placeId: String }
/// // reads and writes the column `place_id`
/// ```
protocol StoreRecord: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {}

extension StoreRecord {
    public static var databaseColumnDecodingStrategy: DatabaseColumnDecodingStrategy { .convertFromSnakeCase }
    public static var databaseColumnEncodingStrategy: DatabaseColumnEncodingStrategy { .convertToSnakeCase }
    // Dates through StoredDate, not GRDB's DateFormatter/Calendar: same text, no ICU (see StoredDate).
    public static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy {
        .custom { StoredDate.string($0) }
    }
    public static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy {
        .custom { StoredDate.date($0) }
    }
}

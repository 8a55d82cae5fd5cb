import Foundation

/// Listing facts about a geocache (place kind `geocache`), from Groundspeak or opencaching GPX.
///
/// When a file carries corrected coordinates (GSAK), the place holds the corrected point and
/// ``originalLatitude``/``originalLongitude`` keep the published one.
///
/// ```swift
/// let d = GeocacheDetails(placeId: "GC2T9RW", code: "GC2T9RW", cacheType: "Traditional Cache")
/// ```
public struct GeocacheDetails: Codable, Sendable, Equatable, Hashable {
    public static let databaseTableName = "geocache"

    public var placeId: String
    public var code: String
    public var cacheType: String?
    public var container: String?
    public var difficulty: Double?
    /// Difficulty and terrain ratings run from 1 to 5 in half steps.
    static let ratingRange: ClosedRange<Double> = 1...5
    public var terrain: Double?
    public var owner: String?
    public var placedBy: String?
    public var hint: String?
    public var shortDescription: String?
    public var longDescription: String?
    public var descriptionIsHTML: Bool
    public var logsCount: Int
    public var available: Bool
    public var archived: Bool
    public var country: String?
    public var region: String?
    public var placedAt: Date?
    public var url: String?
    public var originalLatitude: Double?
    public var originalLongitude: Double?

    public init(placeId: String, code: String, cacheType: String? = nil, container: String? = nil,
                difficulty: Double? = nil, terrain: Double? = nil, owner: String? = nil,
                placedBy: String? = nil, hint: String? = nil, shortDescription: String? = nil,
                longDescription: String? = nil, descriptionIsHTML: Bool = false, logsCount: Int = 0,
                available: Bool = true, archived: Bool = false, country: String? = nil,
                region: String? = nil, placedAt: Date? = nil, url: String? = nil,
                originalLatitude: Double? = nil, originalLongitude: Double? = nil) {
        self.placeId = placeId
        self.code = code
        self.cacheType = cacheType
        self.container = container
        self.difficulty = difficulty
        self.terrain = terrain
        self.owner = owner
        self.placedBy = placedBy
        self.hint = hint
        self.shortDescription = shortDescription
        self.longDescription = longDescription
        self.descriptionIsHTML = descriptionIsHTML
        self.logsCount = logsCount
        self.available = available
        self.archived = archived
        self.country = country
        self.region = region
        self.placedAt = placedAt
        self.url = url
        self.originalLatitude = originalLatitude
        self.originalLongitude = originalLongitude
    }

    /// True when the listing's coordinates were corrected (e.g. a solved mystery).
    var hasCorrectedCoordinates: Bool { originalLatitude != nil && originalLongitude != nil }

    enum CodingKeys: String, CodingKey {
        case placeId, code, cacheType, container, difficulty, terrain, owner, placedBy, hint
        case shortDescription, longDescription
        case descriptionIsHTML = "descriptionIsHtml"
        case logsCount, available, archived, country, region, placedAt, url
        case originalLatitude, originalLongitude
    }
}

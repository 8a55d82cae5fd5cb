
/// Catalogue facts about a Big Thing (place kind `bigthing`).
///
/// ```swift
/// let d = BigThingDetails(placeId: "halans:d0577fb8cf", state: .nsw, town: "Coffs Harbour")
/// ```
public struct BigThingDetails: Codable, Sendable, Equatable, Hashable {
    public static let databaseTableName = "big_thing"

    public var placeId: String
    public var state: AustralianState
    public var town: String?
    /// Free text about where it stands ("Royal Australian Mint 62–114 Denison St, Deakin").
    public var location: String?
    public var description: String?
    public var photoUrl: String?
    /// The catalogue's (community) rating and vote count, when the source has them.
    public var rating: Double?
    public var votes: Int?
    public var tags: [String]
    public var category: String?
    public var year: Int?
    /// As the source says it: standing, demolished, relocated, removed, Active, ...
    public var status: String?
    /// How far to trust the point (`town` means the town centre, not the object).
    public var coordPrecision: String?
    /// Set by a catalogue sync when the server's full list no longer has the thing; kept, not deleted.
    public var withdrawn: Bool

    public init(placeId: String, state: AustralianState, town: String? = nil, location: String? = nil,
                description: String? = nil, photoUrl: String? = nil, rating: Double? = nil,
                votes: Int? = nil, tags: [String] = [], category: String? = nil, year: Int? = nil,
                status: String? = nil, coordPrecision: String? = nil, withdrawn: Bool = false) {
        self.placeId = placeId
        self.state = state
        self.town = town
        self.location = location
        self.description = description
        self.photoUrl = photoUrl
        self.rating = rating
        self.votes = votes
        self.tags = tags
        self.category = category
        self.year = year
        self.status = status
        self.coordPrecision = coordPrecision
        self.withdrawn = withdrawn
    }

    /// Demolished or removed things are kept for history but are not worth driving to.
    var isGone: Bool {
        if withdrawn { return true }
        guard let s = status?.lowercased() else { return false }
        return s == "demolished" || s == "removed"
    }
}

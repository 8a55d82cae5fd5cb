import HotColdCore

/// A row of a place list (`hotcold things`, `hotcold near`): the place plus what a list shows.
///
/// ```swift
/// for s in try store.search(SearchRequest(text: "banana"), user: "alice").rows {
///     print(s.place.name, s.state?.rawValue ?? "", s.seen ? "seen" : "")
/// }
/// ```
public struct PlaceSummary: Codable, Sendable, Equatable {
    public var place: Place
    public var state: AustralianState?
    public var town: String?
    /// The catalogue's community rating (Big Things from the web API).
    public var catalogueRating: Double?
    /// How many votes the catalogue's rating averages.
    public var catalogueVotes: Int?
    /// The user's own stars.
    public var myRating: Int?
    public var favourite: Bool
    public var seen: Bool
    /// Metres from the query's origin, when it had one.
    public var distance: Double?

    /// The rating `--sort rating` orders by: the user's own stars where given, else the
    /// catalogue's average.
    public var sortRating: Double? { myRating.map(Double.init) ?? catalogueRating }

    public init(place: Place, state: AustralianState? = nil, town: String? = nil,
                catalogueRating: Double? = nil, catalogueVotes: Int? = nil, myRating: Int? = nil, favourite: Bool = false,
                seen: Bool = false, distance: Double? = nil) {
        self.place = place
        self.state = state
        self.town = town
        self.catalogueRating = catalogueRating
        self.catalogueVotes = catalogueVotes
        self.myRating = myRating
        self.favourite = favourite
        self.seen = seen
        self.distance = distance
    }
}

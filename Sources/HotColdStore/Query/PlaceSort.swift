/// List orders for place searches.
public enum PlaceSort: String, Codable, Sendable, CaseIterable {
    /// Alphabetical, ignoring case and accents.
    case name
    /// Best first: the user's own stars when given, else the catalogue's rating; unrated last.
    case rating
    /// Nearest first from the query's origin (which is then required).
    case distance
}

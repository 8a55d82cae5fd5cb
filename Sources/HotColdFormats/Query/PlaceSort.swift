/// List orders for place searches.
public enum PlaceSort: String, Codable, Sendable, CaseIterable {
    /// Alphabetical by name, ignoring case and accents; ties broken by town.
    case name
    /// Best first by `PlaceSummary.sortRating`: the user's own stars when given, else the
    /// catalogue's average; unrated last; ties by name.
    case rating
    /// Nearest first from the query's origin (which is then required).
    case distance
}

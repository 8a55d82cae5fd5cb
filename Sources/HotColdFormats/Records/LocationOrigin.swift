/// Where a saved location came from, which decides whether its name may change.
public enum LocationOrigin: String, Codable, Sendable, Hashable {
    /// Came with a locations feed; its name is read-only.
    case `default`
    /// Added (or imported) by the user; its name is theirs to edit.
    case custom
}

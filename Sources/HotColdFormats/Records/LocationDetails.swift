import Foundation

/// A saved location (place kind `location`): from a feed (read-only name) or added by a user.
///
/// ```swift
/// let l = LocationDetails(placeId: "location:bondi-beach", origin: .default)
/// l.isNameEditable   // false
/// ```
public struct LocationDetails: Codable, Sendable, Equatable, Hashable {
    public static let databaseTableName = "location"

    public var placeId: String
    public var origin: LocationOrigin
    /// The user who added a custom location (nil for feed locations).
    public var createdBy: String?
    public var createdAt: Date?

    public init(placeId: String, origin: LocationOrigin, createdBy: String? = nil, createdAt: Date? = nil) {
        self.placeId = placeId
        self.origin = origin
        self.createdBy = createdBy
        self.createdAt = createdAt
    }

    public var isNameEditable: Bool { origin == .custom }
}

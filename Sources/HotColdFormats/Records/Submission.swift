import Foundation

/// A new Big Thing a user found and wants to send to the catalogue (delivered by the web API's
/// outbox, which refers to this row).
///
/// Either a coordinate or an address is required.
///
/// ```swift
/// let s = try Submission(user: "alice", name: "Big Wombat", latitude: -35.1, longitude: 148.9,
///                        seenAt: .now, submittedBy: "Alice")
/// ```
public struct Submission: Codable, Sendable, Equatable, Identifiable, Hashable {
    public static let databaseTableName = "submission"

    public var id: Int64?
    public var user: String
    public var name: String
    public var latitude: Double?
    public var longitude: Double?
    public var address: String?
    public var seenAt: Date
    /// The name to credit, which may differ from the Unix user.
    public var submittedBy: String?
    public var photoPath: String?
    public var createdAt: Date

    public init(id: Int64? = nil, user: String, name: String, latitude: Double? = nil,
                longitude: Double? = nil, address: String? = nil, seenAt: Date,
                submittedBy: String? = nil, photoPath: String? = nil, createdAt: Date = Date()) throws {
        let hasCoordinate = latitude != nil && longitude != nil
        guard hasCoordinate || !(address ?? "").isEmpty else { throw StoreError.submissionNeedsPlace }
        self.id = id
        self.user = user
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
        self.address = address
        self.seenAt = seenAt
        self.submittedBy = submittedBy
        self.photoPath = photoPath
        self.createdAt = createdAt
    }
}

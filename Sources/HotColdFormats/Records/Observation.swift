import Foundation
import HotColdCore

/// A field-survey observation: what was seen, when, and optionally where.
///
/// Imported observations get an id derived from their content, so importing a feed twice
/// stores each row once; observations made in the CLI get a fresh UUID.
///
/// ```swift
/// let o = Observation(id: "obs:…", user: "alice", classification: .bird, title: "Red-tailed Hawk",
///                     description: nil, observedAt: .now)
/// ```
public struct Observation: Codable, Sendable, Equatable, Identifiable, Hashable {
    public static let databaseTableName = "observation"

    public var id: String
    public var user: String
    public var classification: ObservationClassification
    public var title: String
    public var description: String?
    public var observedAt: Date
    public var latitude: Double?
    public var longitude: Double?

    public init(id: String, user: String, classification: ObservationClassification, title: String,
                description: String?, observedAt: Date, coordinate: Coordinate? = nil) {
        self.id = id
        self.user = user
        self.classification = classification
        self.title = title
        self.description = description
        self.observedAt = observedAt
        self.latitude = coordinate?.latitude
        self.longitude = coordinate?.longitude
    }

    public var coordinate: Coordinate? {
        guard let latitude, let longitude else { return nil }
        return Coordinate(latitude: latitude, longitude: longitude)
    }
}

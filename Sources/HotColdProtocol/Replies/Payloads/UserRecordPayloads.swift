#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// What a reply says about a user's own records: the fields a client shows, not the store's
// rows. A column renamed in the database changes the store's mapping to these, never the
// wire; what only the daemon needs (a visit's photo file on its disk) is not sent.

/// One time the user was at a place (`store seen`, and within `place` and `visits`).
public struct VisitPayload: Codable, Sendable, Equatable {
    var id: Int64?
    var placeId: String
    var user: String
    public var visitedAt: Date
    /// `manual` (`store seen`) or `automatic` (an arrival).
    public var method: String
    /// The arrival episode that produced an automatic visit.
    var episode: String?
    /// When the receiver left, for an automatic visit; nil while it is still there.
    var departedAt: Date?

    public init(id: Int64?, placeId: String, user: String, visitedAt: Date, method: String,
                episode: String?, departedAt: Date?) {
        self.id = id
        self.placeId = placeId
        self.user = user
        self.visitedAt = visitedAt
        self.method = method
        self.episode = episode
        self.departedAt = departedAt
    }
}

/// The user's 0–5 stars for a place (`store rate`, and within `place`).
public struct RatingPayload: Codable, Sendable, Equatable {
    var user: String
    var placeId: String
    public var stars: Int
    public var ratedAt: Date

    public init(user: String, placeId: String, stars: Int, ratedAt: Date) {
        self.user = user
        self.placeId = placeId
        self.stars = stars
        self.ratedAt = ratedAt
    }
}

/// The user's note on a place (`store note`, and within `place`).
public struct NotePayload: Codable, Sendable, Equatable {
    var user: String
    var placeId: String
    public var text: String
    var updatedAt: Date

    public init(user: String, placeId: String, text: String, updatedAt: Date) {
        self.user = user
        self.placeId = placeId
        self.text = text
        self.updatedAt = updatedAt
    }
}

/// The user's relation to one place: `place`'s `mine`.
public struct UserPlaceStatePayload: Codable, Sendable, Equatable {
    public var user: String
    var placeId: String
    public var visits: [VisitPayload]
    public var favourite: Bool
    public var rating: RatingPayload?
    public var note: NotePayload?

    public init(user: String, placeId: String, visits: [VisitPayload], favourite: Bool,
                rating: RatingPayload?, note: NotePayload?) {
        self.user = user
        self.placeId = placeId
        self.visits = visits
        self.favourite = favourite
        self.rating = rating
        self.note = note
    }

    /// Seen (for a cache: found) means at least one visit, automatic or manual.
    public var seen: Bool { !visits.isEmpty }
    public var lastVisit: Date? { visits.map(\.visitedAt).max() }
}

/// A visit with the place visited: a row of `visits`.
public struct VisitRecordPayload: Codable, Sendable, Equatable {
    public var visit: VisitPayload
    public var place: PlacePayload

    public init(visit: VisitPayload, place: PlacePayload) {
        self.visit = visit
        self.place = place
    }
}

/// A field observation (`store observe`, and a row of `observations`).
public struct ObservationPayload: Codable, Sendable, Equatable {
    public var id: String
    var user: String
    /// One of `StoreRequest.Observe.classifications`.
    public var classification: String
    public var title: String
    public var description: String?
    public var observedAt: Date
    var latitude: Double?
    var longitude: Double?

    public init(id: String, user: String, classification: String, title: String, description: String?,
                observedAt: Date, latitude: Double?, longitude: Double?) {
        self.id = id
        self.user = user
        self.classification = classification
        self.title = title
        self.description = description
        self.observedAt = observedAt
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// A new Big Thing queued for the catalogue (`submit`).
public struct SubmissionPayload: Codable, Sendable, Equatable {
    var id: Int64?
    var user: String
    var name: String
    var latitude: Double?
    var longitude: Double?
    var address: String?
    var seenAt: Date
    /// The name credited, which may differ from the Unix user.
    var submittedBy: String?
    /// The attached photo's file name as the client sent it (`submit`'s `photo.filename`;
    /// never a path on the daemon's disk); nil without a photo.
    var photoPath: String?
    var createdAt: Date

    public init(id: Int64?, user: String, name: String, latitude: Double?, longitude: Double?, address: String?,
                seenAt: Date, submittedBy: String?, photoPath: String?, createdAt: Date) {
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

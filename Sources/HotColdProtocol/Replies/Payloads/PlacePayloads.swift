#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HotColdCore

// What a reply says about places: the fields a client shows, not the store's rows (no
// search column, which is how the database finds a name, not part of the place).

/// A place: `store add`/`rename`/`delete`, and within the lists and `place`.
public struct PlacePayload: Codable, Sendable, Equatable {
    /// The catalogue id (`halans:0d23000d3d`), a cache or waypoint code, or `location:…`.
    public var id: String
    public var kind: TargetKind
    public var name: String
    public var latitude: Double
    public var longitude: Double
    /// False for places that are gone (withdrawn, demolished, archived).
    public var active: Bool

    public init(id: String, kind: TargetKind, name: String, latitude: Double, longitude: Double, active: Bool) {
        self.id = id
        self.kind = kind
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
        self.active = active
    }
}

/// A row of `search`: the place and what a list shows of it for the asking user.
public struct PlaceSummaryPayload: Codable, Sendable, Equatable {
    public var place: PlacePayload
    /// A Big Thing's state or territory (`NSW`, …).
    public var state: String?
    public var town: String?
    /// The catalogue's community rating, and how many votes it averages.
    public var catalogueRating: Double?
    public var catalogueVotes: Int?
    /// The user's own stars.
    public var myRating: Int?
    public var favourite: Bool
    public var seen: Bool
    /// Metres from the query's origin, when it had one.
    public var distance: Double?

    public init(place: PlacePayload, state: String?, town: String?, catalogueRating: Double?, catalogueVotes: Int?,
                myRating: Int?, favourite: Bool, seen: Bool, distance: Double?) {
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

/// Everything about one place: `place`'s `detail`. One of the kind's details is set.
public struct PlaceDetailPayload: Codable, Sendable, Equatable {
    public var place: PlacePayload
    public var bigThing: BigThing?
    public var geocache: Geocache?
    public var waypoint: Waypoint?
    public var location: Location?
    /// A cache's child waypoints (empty for other kinds).
    public var waypoints: [PlacePayload]

    public init(place: PlacePayload, bigThing: BigThing?, geocache: Geocache?, waypoint: Waypoint?,
                location: Location?, waypoints: [PlacePayload]) {
        self.place = place
        self.bigThing = bigThing
        self.geocache = geocache
        self.waypoint = waypoint
        self.location = location
        self.waypoints = waypoints
    }

    public struct BigThing: Codable, Sendable, Equatable {
        var placeId: String
        /// The state or territory (`NSW`, …).
        public var state: String
        public var town: String?
        public var location: String?
        public var description: String?
        public var photoUrl: String?
        /// The catalogue's community rating, and its votes.
        public var rating: Double?
        public var votes: Int?
        public var tags: [String]
        var category: String?
        public var year: Int?
        public var status: String?
        /// `town` when the point is the town's centre, not the object's.
        public var coordPrecision: String?
        var withdrawn: Bool

        public init(placeId: String, state: String, town: String?, location: String?, description: String?,
                    photoUrl: String?, rating: Double?, votes: Int?, tags: [String], category: String?, year: Int?,
                    status: String?, coordPrecision: String?, withdrawn: Bool) {
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
    }

    public struct Geocache: Codable, Sendable, Equatable {
        var placeId: String
        var code: String
        public var cacheType: String?
        public var container: String?
        public var difficulty: Double?
        public var terrain: Double?
        public var owner: String?
        var placedBy: String?
        public var hint: String?
        public var shortDescription: String?
        public var longDescription: String?
        /// Spelt as the wire has always had it: `description_is_html`.
        public var descriptionIsHtml: Bool
        public var logsCount: Int
        public var available: Bool
        public var archived: Bool
        var country: String?
        var region: String?
        var placedAt: Date?
        public var url: String?
        /// Where the cache is listed, when the place's own point is a corrected one.
        public var originalLatitude: Double?
        public var originalLongitude: Double?

        public init(placeId: String, code: String, cacheType: String?, container: String?, difficulty: Double?,
                    terrain: Double?, owner: String?, placedBy: String?, hint: String?, shortDescription: String?,
                    longDescription: String?, descriptionIsHtml: Bool, logsCount: Int, available: Bool, archived: Bool,
                    country: String?, region: String?, placedAt: Date?, url: String?,
                    originalLatitude: Double?, originalLongitude: Double?) {
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
            self.descriptionIsHtml = descriptionIsHtml
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
    }

    public struct Waypoint: Codable, Sendable, Equatable {
        var placeId: String
        /// The cache this waypoint belongs to.
        public var parentId: String
        public var waypointType: String?
        public var comment: String?
        var description: String?

        public init(placeId: String, parentId: String, waypointType: String?, comment: String?, description: String?) {
            self.placeId = placeId
            self.parentId = parentId
            self.waypointType = waypointType
            self.comment = comment
            self.description = description
        }
    }

    public struct Location: Codable, Sendable, Equatable {
        var placeId: String
        /// `default` (shipped, name read-only) or `custom` (a user's).
        public var origin: String
        var createdBy: String?
        var createdAt: Date?

        public init(placeId: String, origin: String, createdBy: String?, createdAt: Date?) {
            self.placeId = placeId
            self.origin = origin
            self.createdBy = createdBy
            self.createdAt = createdAt
        }
    }
}

/// `place`'s result: the place and the asking user's own state on it.
public struct PlaceViewPayload: Codable, Sendable, Equatable {
    public var detail: PlaceDetailPayload
    public var mine: UserPlaceStatePayload

    public init(detail: PlaceDetailPayload, mine: UserPlaceStatePayload) {
        self.detail = detail
        self.mine = mine
    }
}

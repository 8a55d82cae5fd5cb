import HotColdCore

/// `search`: places by text, state and kind, in an order, optionally measured from a point
/// (what `hotcold things` lists). At most `limit` rows (≤ 1,000) from `offset`.
public struct SearchRequest: RequestBody {
    static let states = ["ACT", "NSW", "NT", "QLD", "SA", "TAS", "VIC", "WA"]
    static let sorts = ["name", "rating", "distance"]

    public var text: String?
    /// An Australian state or territory code (upper case).
    public var state: String?
    public var kinds: [String]?
    public var sort: String
    public var origin: Coordinate?
    public var limit: Int
    public var offset: Int
    public var includeInactive: Bool

    public init(text: String? = nil, state: String? = nil, kinds: [String]? = nil, sort: String = "name",
                origin: Coordinate? = nil, limit: Int = Limits.resultRows, offset: Int = 0, includeInactive: Bool = true) {
        self.text = text
        self.state = state
        self.kinds = kinds
        self.sort = sort
        self.origin = origin
        self.limit = limit
        self.offset = offset
        self.includeInactive = includeInactive
    }

    init(_ decoder: any Decoder) throws(ProtocolError) {
        let f = try Fields(decoder, command: "search",
                           allowed: ["text", "state", "kinds", "sort", "lat", "lon", "limit", "offset", "include_inactive"])
        text = try f.string("text", max: Limits.nameLength)
        if let s = try f.string("state", max: 8) {
            guard Self.states.contains(s.uppercased()) else {
                throw ProtocolError(.badField, command: "search", field: "state", "\"\(s)\" is not one of \(Self.states.joined(separator: ", "))")
            }
            state = s.uppercased()
        }
        kinds = try RoamRequest.kinds(f, "kinds")
        sort = try f.choice("sort", Self.sorts) ?? "name"
        origin = try f.coordinate()
        if sort == "distance" && origin == nil {
            throw ProtocolError(.badField, command: "search", field: "sort", "distance needs lat and lon")
        }
        limit = try f.integer("limit", in: 1...Limits.resultRows) ?? Limits.resultRows
        offset = try f.integer("offset", in: 0...Limits.maxInteger) ?? 0
        includeInactive = try f.bool("include_inactive") ?? true
    }

    func encode(to encoder: any Encoder) throws {
        var w = try FieldWriter(encoder, command: "search")
        try w.put("text", text)
        try w.put("state", state)
        try w.put("kinds", kinds)
        try w.put("sort", sort)
        try w.put("lat", origin?.latitude)
        try w.put("lon", origin?.longitude)
        try w.put("limit", limit)
        try w.put("offset", offset)
        try w.put("include_inactive", includeInactive)
    }
}

/// `place`: everything about one place, with the asking user's own state (`hotcold show`).
public struct PlaceRequest: RequestBody {
    public var id: String
    public init(id: String) { self.id = id }

    init(_ decoder: any Decoder) throws(ProtocolError) {
        let f = try Fields(decoder, command: "place", allowed: ["id"])
        id = try f.requiredString("id", max: Limits.idLength, what: "a place id")
    }

    func encode(to encoder: any Encoder) throws {
        var w = try FieldWriter(encoder, command: "place")
        try w.put("id", id)
    }
}

/// `near`: the places nearest a point (the daemon's last fix when `lat`/`lon` are left out);
/// kind `friend` lists the friends on the radar (from the daemon's last fix) beside them.
public struct NearRequest: RequestBody {
    public var at: Coordinate?
    public var kinds: [String]?
    public var limit: Int

    public init(at: Coordinate? = nil, kinds: [String]? = nil, limit: Int = 10) {
        self.at = at
        self.kinds = kinds
        self.limit = limit
    }

    init(_ decoder: any Decoder) throws(ProtocolError) {
        let f = try Fields(decoder, command: "near", allowed: ["lat", "lon", "kinds", "limit"])
        at = try f.coordinate()
        kinds = try RoamRequest.kinds(f, "kinds", also: ["friend"])
        limit = try f.integer("limit", in: 1...Limits.resultRows) ?? 10
    }

    func encode(to encoder: any Encoder) throws {
        var w = try FieldWriter(encoder, command: "near")
        try w.put("lat", at?.latitude)
        try w.put("lon", at?.longitude)
        try w.put("kinds", kinds)
        try w.put("limit", limit)
    }
}

/// `export`: the places (or the user's visits) as GPX or GeoJSON. The reply names a download
/// whose bytes the client fetches with `download`.
public struct ExportRequest: RequestBody {
    static let formats = ["gpx", "geojson"]
    public var format: String
    public var visits: Bool

    public init(format: String, visits: Bool = false) {
        self.format = format
        self.visits = visits
    }

    init(_ decoder: any Decoder) throws(ProtocolError) {
        let f = try Fields(decoder, command: "export", allowed: ["format", "visits"])
        format = try f.required(try f.choice("format", Self.formats), "format", "gpx or geojson")
        visits = try f.bool("visits") ?? false
    }

    func encode(to encoder: any Encoder) throws {
        var w = try FieldWriter(encoder, command: "export")
        try w.put("format", format)
        try w.put("visits", visits)
    }
}

/// `download`: the next bytes of a prepared export, from `offset`.
public struct DownloadRequest: RequestBody {
    public var id: String
    public var offset: Int

    init(id: String, offset: Int) {
        self.id = id
        self.offset = offset
    }

    init(_ decoder: any Decoder) throws(ProtocolError) {
        let f = try Fields(decoder, command: "download", allowed: ["id", "offset"])
        id = try f.requiredString("id", max: Limits.idLength, what: "the download id from EXPORT")
        offset = try f.integer("offset", in: 0...Limits.maxInteger) ?? 0
    }

    func encode(to encoder: any Encoder) throws {
        var w = try FieldWriter(encoder, command: "download")
        try w.put("id", id)
        try w.put("offset", offset)
    }
}

/// `watch`: start or stop the event stream, optionally filtered, optionally resuming after a
/// sequence number.
public struct WatchRequest: RequestBody {
    /// Every class a watcher may name, from the types that own them.
    public static let eventClasses = EventMessage.classes + [
        QueuedEvent.wireClass, FeedEvent.wireClass, LikeEvent.wireClass, LikeReceivedEvent.wireClass,
        RecordEvent.wireClass, FollowingChangedEvent.wireClass, FixEvent.wireClass]
    /// Classes sent only to a watcher that names them (a plain `watch` never gets them): FIX,
    /// every fix, live only.
    public static let namedOnly: Set<String> = [FixEvent.wireClass]

    public var enable: Bool
    /// Only these event classes (upper case); nil for all.
    public var classes: [String]?
    /// Only events about these target ids (GPS events pass); nil for all.
    public var targets: [String]?
    /// Replay logged events after this sequence number first.
    public var since: Int?

    public init(enable: Bool = true, classes: [String]? = nil, targets: [String]? = nil, since: Int? = nil) {
        self.enable = enable
        self.classes = classes
        self.targets = targets
        self.since = since
    }

    init(_ decoder: any Decoder) throws(ProtocolError) {
        let f = try Fields(decoder, command: "watch", allowed: ["enable", "classes", "targets", "since"])
        enable = try f.bool("enable") ?? true
        if let c = try f.strings("classes", maxCount: 16, maxLength: 20) {
            let upper = c.map { $0.uppercased() }
            if let bad = upper.first(where: { !Self.eventClasses.contains($0) }) {
                throw ProtocolError(.badField, command: "watch", field: "classes",
                                    "unknown class \"\(bad)\" (known: \(Self.eventClasses.sorted().joined(separator: ", ")))")
            }
            classes = Array(Set(upper)).sorted()
        }
        targets = try f.strings("targets", maxCount: Limits.watchTargets, maxLength: Limits.idLength).map { Array(Set($0)).sorted() }
        since = try f.integer("since", in: 0...Limits.maxInteger)
    }

    func encode(to encoder: any Encoder) throws {
        var w = try FieldWriter(encoder, command: "watch")
        try w.put("enable", enable)
        try w.put("classes", classes)
        try w.put("targets", targets)
        try w.put("since", since)
    }
}

/// `hunt`: track exactly these targets (place ids or "LAT,LON[,NAME]"), whatever their distance.
public struct HuntRequest: RequestBody {
    public var targets: [String]

    public init(targets: [String]) { self.targets = targets }

    init(_ decoder: any Decoder) throws(ProtocolError) {
        let f = try Fields(decoder, command: "hunt", allowed: ["targets"])
        targets = try f.required(try f.strings("targets", maxCount: Limits.huntTargets, maxLength: Limits.targetSpecLength),
                                 "targets", "a non-empty array of \"LAT,LON[,NAME]\" or place ids")
        if targets.isEmpty {
            throw ProtocolError(.badField, command: "hunt", field: "targets",
                                "give a non-empty array of \"LAT,LON[,NAME]\" or place ids")
        }
    }

    func encode(to encoder: any Encoder) throws {
        var w = try FieldWriter(encoder, command: "hunt")
        try w.put("targets", targets)
    }
}

/// `roam`: track every stored place of some kinds within a radius.
public struct RoamRequest: RequestBody {
    static let placeKinds = ["bigthing", "geocache", "waypoint", "location"]

    /// Metres, in (0, 20,000 km].
    public var radius: Double
    public var kinds: [String]
    public var unseen: Bool
    public var favourites: Bool

    public init(radius: Double = 10_000, kinds: [String] = ["bigthing"], unseen: Bool = false, favourites: Bool = false) {
        self.radius = radius
        self.kinds = kinds
        self.unseen = unseen
        self.favourites = favourites
    }

    init(_ decoder: any Decoder) throws(ProtocolError) {
        let f = try Fields(decoder, command: "roam", allowed: ["radius", "kinds", "unseen", "favourites"])
        radius = try f.distance("radius", max: Limits.maxRadius) ?? 10_000
        kinds = try Self.kinds(f, "kinds") ?? ["bigthing"]
        unseen = try f.bool("unseen") ?? false
        favourites = try f.bool("favourites") ?? false
    }

    /// A list of place kinds (lowercased, each known, no repeats).
    static func kinds(_ f: Fields, _ key: String, also extra: [String] = []) throws(ProtocolError) -> [String]? {
        guard let list = try f.strings(key, maxCount: 8, maxLength: 16) else { return nil }
        let known = placeKinds + extra
        var out: [String] = []
        for k in list.map({ $0.lowercased() }) {
            guard known.contains(k) else {
                throw ProtocolError(.badField, command: f.command, field: key,
                                    "unknown kind \"\(k)\" (known: \(known.joined(separator: ", ")))")
            }
            if !out.contains(k) { out.append(k) }
        }
        if out.isEmpty { throw ProtocolError(.badField, command: f.command, field: key, "must name at least one kind") }
        return out
    }

    func encode(to encoder: any Encoder) throws {
        var w = try FieldWriter(encoder, command: "roam")
        try w.put("radius", radius)
        try w.put("kinds", kinds)
        try w.put("unseen", unseen)
        try w.put("favourites", favourites)
    }
}

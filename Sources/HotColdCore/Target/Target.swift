/// What kind of place a target is. Open-ended: the store adds kinds as it grows.
public struct TargetKind: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ raw: String) { self.rawValue = raw }

    public static let bigThing = TargetKind("bigthing")
    public static let geocache = TargetKind("geocache")
    public static let waypoint = TargetKind("waypoint")
    public static let location = TargetKind("location")
    public static let point = TargetKind("point")

    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(rawValue)
    }
}

/// The identity of a target as events carry it.
public struct TargetRef: Sendable, Hashable, Codable {
    public var id: String
    public var name: String
    public var kind: TargetKind

    public init(id: String, name: String, kind: TargetKind) {
        self.id = id
        self.name = name
        self.kind = kind
    }
}

/// A place the engine measures against.
///
/// ```swift
/// let t = Target(id: "big-banana", name: "Big Banana", kind: .bigThing,
///                coordinate: Coordinate(latitude: -30.2767, longitude: 153.1353))
/// ```
public struct Target: Sendable, Hashable {
    public var ref: TargetRef
    public var coordinate: Coordinate

    public init(id: String, name: String, kind: TargetKind = .point, coordinate: Coordinate) {
        self.ref = TargetRef(id: id, name: name, kind: kind)
        self.coordinate = coordinate
    }

    public var id: String { ref.id }
    public var name: String { ref.name }
    public var kind: TargetKind { ref.kind }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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
    /// A followed device on the friend radar (`friend:USER/DEVICE`): a target that moves.
    public static let friend = TargetKind("friend")

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

extension Target {
    /// A target given by hand as `LAT,LON[,NAME]` in decimal degrees (`--target`, the config's
    /// hunt list, the socket's `hunt`), with id `point-INDEX`.
    ///
    /// Returns nil when the text does not start with two numbers (it may be a stored place's
    /// id); throws when it does but they are not a coordinate on Earth.
    ///
    /// ```swift
    /// let t = try Target(point: "-30.2748,153.1338,Big Banana", index: 1)   // id "point-1"
    /// ```
    public init?(point text: some StringProtocol, index: Int) throws(PointTargetError) {
        let parts = text.split(separator: ",", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2,
              let lat = Double(parts[0].trimmingBlanks()),
              let lon = Double(parts[1].trimmingBlanks())
        else { return nil }
        let c = Coordinate(latitude: lat, longitude: lon)
        guard c.isValid else { throw PointTargetError(text: String(text)) }
        let name = parts.count == 3 ? String(parts[2].trimmingBlanks()) : ""
        self.init(id: "point-\(index)", name: name.isEmpty ? "Target \(index)" : name, kind: .point, coordinate: c)
    }
}

/// `LAT,LON` out of range (latitude beyond ±90°, longitude beyond ±180°, or not finite).
public struct PointTargetError: Error, CustomStringConvertible {
    public var text: String
    public var description: String { "\(text): coordinate out of range; expected LAT,LON with latitude within ±90 and longitude within ±180" }
}

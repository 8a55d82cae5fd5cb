import Foundation

/// The eight Australian states and territories, with generous bounding boxes used to notice
/// catalogue rows whose coordinate cannot be in the state they claim.
///
/// ```swift
/// AustralianState(parsing: "New South Wales")   // .nsw
/// AustralianState.sa.contains(latitude: 34.82, longitude: 138.89)   // false: northern hemisphere
/// ```
public enum AustralianState: String, Codable, Sendable, CaseIterable, Hashable {
    case act = "ACT", nsw = "NSW", nt = "NT", qld = "QLD", sa = "SA", tas = "TAS", vic = "VIC", wa = "WA"

    /// Accepts the abbreviation or the full name, any case ("qld", "Queensland").
    public init?(parsing text: String) {
        let t = text.trimmingCharacters(in: .whitespaces).uppercased()
        if let s = AustralianState(rawValue: t) { self = s; return }
        let names: [String: AustralianState] = [
            "AUSTRALIAN CAPITAL TERRITORY": .act, "NEW SOUTH WALES": .nsw, "NORTHERN TERRITORY": .nt,
            "QUEENSLAND": .qld, "SOUTH AUSTRALIA": .sa, "TASMANIA": .tas, "VICTORIA": .vic,
            "WESTERN AUSTRALIA": .wa,
        ]
        guard let s = names[t] else { return nil }
        self = s
    }

    /// (south, north, west, east) in degrees: the mainland or island extent of the state,
    /// offshore territories aside (Lord Howe, Macquarie Island).
    public var bounds: (south: Double, north: Double, west: Double, east: Double) {
        switch self {
        case .act: (-35.93, -35.12, 148.76, 149.40)
        case .nsw: (-37.51, -28.16, 140.99, 153.64)
        case .nt: (-26.0, -10.97, 129.0, 138.0)
        case .qld: (-29.18, -9.14, 137.99, 153.55)
        case .sa: (-38.06, -25.99, 129.0, 141.0)
        case .tas: (-43.65, -39.57, 143.82, 148.50)
        case .vic: (-39.16, -33.98, 140.96, 149.98)
        case .wa: (-35.13, -13.69, 112.92, 129.0)
        }
    }

    /// True when the point lies in the state's box widened by `margin` degrees
    /// (0.2° ≈ 20 km forgives border towns and coarse coordinates, not sign errors).
    public func contains(latitude: Double, longitude: Double, margin: Double = 0.2) -> Bool {
        let b = bounds
        return latitude >= b.south - margin && latitude <= b.north + margin
            && longitude >= b.west - margin && longitude <= b.east + margin
    }
}


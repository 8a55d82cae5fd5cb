import HotColdCore

/// Which way to go, as an arrow and a word: relative to the course over ground while moving
/// (a driver's "ahead, to the right"), else a compass bearing (standing, the phone's top is
/// not north, but a compass point is).
///
/// ```swift
/// CompassArrow(bearing: 45, course: nil)    // ↗ NE
/// CompassArrow(bearing: 45, course: 90)     // ↖ ahead left
/// ```
public struct CompassArrow: Sendable, Equatable {
    public var arrow: String
    public var label: String

    /// Arrows clockwise from up, 45° apart.
    static let arrows = ["↑", "↗", "→", "↘", "↓", "↙", "←", "↖"]
    /// Directions relative to the course, in the same order as `arrows`.
    static let relativeWords = ["ahead", "ahead right", "right", "behind right",
                                       "behind", "behind left", "left", "ahead left"]

    public init(bearing: Double, course: Double?) {
        if let course, course.isFinite {
            let i = Self.octant(bearing - course)
            arrow = Self.arrows[i]
            label = Self.relativeWords[i]
        } else {
            arrow = Self.arrows[Self.octant(bearing)]
            label = DistanceFormat.compass(bearing)
        }
    }

    /// 0...7 for an angle in degrees (any value; non-finite reads as 0).
    public static func octant(_ degrees: Double) -> Int {
        guard degrees.isFinite else { return 0 }
        var d = degrees.truncatingRemainder(dividingBy: 360)
        if d < 0 { d += 360 }
        return Int((d / 45).rounded()) % 8
    }
}

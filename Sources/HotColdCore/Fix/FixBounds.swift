/// What a receiver can plausibly report. A figure outside these bounds comes from a broken or
/// hostile source (gpsd, a recording) and is treated as unknown, so that nothing absurd reaches
/// the engine's arithmetic or the wire (where the schema wants, for example, accuracy ≥ 0).
///
/// ```swift
/// FixBounds.error(-5)      // nil: a negative error is no error figure
/// FixBounds.speed(1e300)   // nil
/// FixBounds.isPlausible(time: 1_732_346_671)   // true (2024)
/// ```
public enum FixBounds {
    /// 95 % error figures (eph, epx, epy), metres: an error wider than half the equator covers
    /// the whole Earth and says nothing.
    public static let error: ClosedRange<Double> = 0...20_037_509
    /// Ground speed, m/s: receivers stop reporting above the COCOM limit of 1,000 knots.
    public static let speed: ClosedRange<Double> = 0...514.5
    /// Course over ground, degrees true.
    public static let track: ClosedRange<Double> = 0...360
    /// Dilution of precision: gpsd reports at most 99.99; zero is impossible.
    public static let dop: ClosedRange<Double> = 0.01...100
    /// Altitude above mean sea level, metres: from below the deepest trench to the Kármán line.
    public static let altitude: ClosedRange<Double> = -12_000...100_000
    /// Satellites used in the fix: gpsd tracks at most 184 channels.
    public static let satellites: ClosedRange<Int> = 0...255
    /// Fix times, seconds since 1970: from the GPS epoch (1980-01-06) to the end of the 13-bit
    /// GPS week counter's range (8,192 weeks later, 2137-01-06). Receivers up to 1,024 weeks out
    /// still fall inside; anything else cannot be a GPS time, and prints with a four-digit year.
    public static let time: ClosedRange<Double> = 315_964_800...(315_964_800 + 8192 * 604_800)

    @inlinable public static func error(_ v: Double?) -> Double? { within(v, error) }
    @inlinable public static func speed(_ v: Double?) -> Double? { within(v, speed) }
    @inlinable public static func track(_ v: Double?) -> Double? { within(v, track) }
    @inlinable public static func dop(_ v: Double?) -> Double? { within(v, dop) }
    @inlinable public static func altitude(_ v: Double?) -> Double? { within(v, altitude) }
    @inlinable public static func satellites(_ v: Int?) -> Int? {
        guard let v, satellites.contains(v) else { return nil }
        return v
    }

    /// True for a finite time inside ``time``.
    @inlinable public static func isPlausible(time t: Double) -> Bool { time.contains(t) }

    /// `v` when it lies in `range` (NaN never does), else nil.
    @usableFromInline static func within(_ v: Double?, _ range: ClosedRange<Double>) -> Double? {
        guard let v, range.contains(v) else { return nil }
        return v
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One position report from a receiver, whatever it came from (gpsd, NMEA, GPX).
///
/// Unknown values are `nil`, never NaN: sources translate gpsd's NaN on the way in, and the
/// initialiser turns any error figure, speed, course, DOP, altitude or satellite count outside
/// ``FixBounds`` (negative, infinite, absurd) into `nil` as well, whatever the source.
///
/// ```swift
/// let fix = Fix(time: Date(timeIntervalSince1970: 1_700_000_000),
///               coordinate: Coordinate(latitude: -33.86, longitude: 151.21),
///               mode: .threeD, eph: 4.5, speed: 13.9)
/// ```
public struct Fix: Sendable, Equatable {
    /// gpsd's fix modes (`fix.mode`): 0 unknown, 1 no fix, 2 2D, 3 3D.
    public enum Mode: Int, Sendable, Codable, Comparable {
        case unknown = 0, noFix = 1, twoD = 2, threeD = 3
        public static func < (a: Mode, b: Mode) -> Bool { a.rawValue < b.rawValue }
    }

    public var time: Date
    public var coordinate: Coordinate?
    public var mode: Mode
    /// 95 % longitude / latitude / horizontal error estimates in metres (gpsd's epx, epy, eph).
    public var epx: Double?
    public var epy: Double?
    public var eph: Double?
    /// Horizontal dilution of precision, when the source reports it but no error in metres.
    public var hdop: Double?
    /// Speed over ground, m/s.
    public var speed: Double?
    /// Course over ground, degrees true.
    public var track: Double?
    /// Altitude above mean sea level, metres.
    public var altitude: Double?
    /// Satellites used, when known.
    public var satellites: Int?

    public init(time: Date, coordinate: Coordinate?, mode: Mode,
                epx: Double? = nil, epy: Double? = nil, eph: Double? = nil,
                hdop: Double? = nil, speed: Double? = nil, track: Double? = nil,
                altitude: Double? = nil, satellites: Int? = nil) {
        self.time = time
        self.coordinate = coordinate
        self.mode = mode
        self.epx = FixBounds.error(epx)
        self.epy = FixBounds.error(epy)
        self.eph = FixBounds.error(eph)
        self.hdop = FixBounds.dop(hdop)
        self.speed = FixBounds.speed(speed)
        self.track = FixBounds.track(track)
        self.altitude = FixBounds.altitude(altitude)
        self.satellites = FixBounds.satellites(satellites)
    }

    /// A usable position: mode 2D or 3D and a valid coordinate.
    public var hasPosition: Bool {
        mode >= .twoD && (coordinate?.isValid ?? false)
    }

    /// Horizontal error radius (95 %) in metres, from the best figure the source gave:
    /// eph, else the larger of epx/epy, else HDOP times a typical UERE. nil when nothing is known.
    public var horizontalError: Double? {
        if let eph { return eph }
        if let epx, let epy { return max(epx, epy) }
        if let e = epx ?? epy { return e }
        if let hdop { return hdop * Fix.typicalUERE }
        return nil
    }

    /// User-equivalent range error used to turn HDOP into metres (95 %), as gpsd does when a
    /// receiver reports no error estimate.
    static let typicalUERE = 19.0 / 2.0
}

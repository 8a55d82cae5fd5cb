import Foundation

/// NMEA 0183 sentences with correct checksums, for feeding a real gpsd.
///
/// ```swift
/// let t = Date(timeIntervalSince1970: 1_735_732_800)
/// NMEA.gga(time: t, latitude: -33.8568, longitude: 151.2153)
/// // "$GPGGA,120000.00,3351.408000,S,15112.918000,E,1,09,0.9,25.0,M,22.4,M,,*XX"
/// ```
public enum NMEA {
    /// `$BODY*HH` with the XOR checksum of BODY, no line ending.
    public static func sentence(_ body: String) -> String {
        var sum: UInt8 = 0
        for byte in body.utf8 { sum ^= byte }
        return "$" + body + "*" + String(format: "%02X", sum)
    }

    public static func gga(time: Date, latitude: Double, longitude: Double, quality: Int = 1,
                           satellites: Int = 9, hdop: Double = 0.9, altitude: Double = 25.0,
                           geoidSeparation: Double = 22.4, talker: String = "GP") -> String {
        let fields = [
            "\(talker)GGA", hhmmss(time), lat(latitude), latitude < 0 ? "S" : "N",
            lon(longitude), longitude < 0 ? "W" : "E", String(quality),
            String(format: "%02d", satellites), String(format: "%.1f", hdop),
            String(format: "%.1f", altitude), "M", String(format: "%.1f", geoidSeparation), "M", "", "",
        ]
        return sentence(fields.joined(separator: ","))
    }

    /// `speedKnots` over ground, `course` in degrees true.
    public static func rmc(time: Date, latitude: Double, longitude: Double, valid: Bool = true,
                           speedKnots: Double = 0, course: Double = 0, talker: String = "GP") -> String {
        let fields = [
            "\(talker)RMC", hhmmss(time), valid ? "A" : "V", lat(latitude), latitude < 0 ? "S" : "N",
            lon(longitude), longitude < 0 ? "W" : "E", String(format: "%.2f", speedKnots),
            String(format: "%.1f", course), ddmmyy(time), "", "", valid ? "A" : "N",
        ]
        return sentence(fields.joined(separator: ","))
    }

    private static let utc: Calendar = {
        var c = Calendar(identifier: .gregorian)
        c.timeZone = TimeZone(identifier: "UTC")!
        return c
    }()

    private static func hhmmss(_ t: Date) -> String {
        let c = utc.dateComponents([.hour, .minute, .second, .nanosecond], from: t)
        let hundredths = Int((Double(c.nanosecond ?? 0) / 1e7).rounded(.down))
        return String(format: "%02d%02d%02d.%02d", c.hour!, c.minute!, c.second!, hundredths)
    }

    private static func ddmmyy(_ t: Date) -> String {
        let c = utc.dateComponents([.day, .month, .year], from: t)
        return String(format: "%02d%02d%02d", c.day!, c.month!, c.year! % 100)
    }

    private static func lat(_ v: Double) -> String {
        let a = abs(v), d = a.rounded(.down)
        return String(format: "%02d%09.6f", Int(d), (a - d) * 60)
    }

    private static func lon(_ v: Double) -> String {
        let a = abs(v), d = a.rounded(.down)
        return String(format: "%03d%09.6f", Int(d), (a - d) * 60)
    }
}

/// A straight, constant-speed synthetic track at 1 Hz (test data: a local flat-earth offset,
/// good to centimetres over a few kilometres), and the NMEA that a receiver on it would send.
///
/// ```swift
/// let track = SyntheticTrack(start: (-33.8568, 151.2153), bearing: 90, speed: 10)
/// for s in track.sentences(second: 0) { try gpsd.send(s) }
/// ```
public struct SyntheticTrack: Sendable {
    public struct Point: Sendable, Equatable {
        public var time: Date
        public var latitude: Double
        public var longitude: Double
    }

    public var startLatitude: Double
    public var startLongitude: Double
    public var startTime: Date
    /// Degrees true.
    public var bearing: Double
    /// Metres per second.
    public var speed: Double

    /// Default start time 2025-01-01T00:00:00Z: after gpsd 3.22's build date, so it applies no
    /// GPS week-rollover correction.
    public init(start: (latitude: Double, longitude: Double),
                startTime: Date = Date(timeIntervalSince1970: 1_735_689_600),
                bearing: Double, speed: Double) {
        self.startLatitude = start.latitude
        self.startLongitude = start.longitude
        self.startTime = startTime
        self.bearing = bearing
        self.speed = speed
    }

    public func point(second: Int) -> Point {
        let metresPerDegree = 111_320.0
        let d = speed * Double(second)
        let b = bearing * .pi / 180
        let lat = startLatitude + d * cos(b) / metresPerDegree
        let lon = startLongitude
            + d * sin(b) / (metresPerDegree * cos(startLatitude * .pi / 180))
        return Point(time: startTime.addingTimeInterval(Double(second)), latitude: lat, longitude: lon)
    }

    /// One receiver cycle: RMC then GGA for the given second, each ending in CR LF.
    public func sentences(second: Int) -> [String] {
        let p = point(second: second)
        return [
            NMEA.rmc(time: p.time, latitude: p.latitude, longitude: p.longitude,
                     speedKnots: speed / 0.514444, course: bearing),
            NMEA.gga(time: p.time, latitude: p.latitude, longitude: p.longitude),
        ].map { $0 + "\r\n" }
    }
}

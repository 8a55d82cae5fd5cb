#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// FIX (since 1.9): each fix the engine accepted, live, for watchers that name the class in
/// `classes` (a plain `watch` never gets it). It is the position itself, not news about it: no
/// `seq`, never written to the log, never replayed by `since`, and left out for a client
/// still catching up from the log. The MQTT bridge publishes a car's position from it as
/// the fixes come, instead of asking `status` on a timer.
///
/// ```json
/// {"class":"FIX","accuracy_m":9.5,"lat":-30.3,"lon":153.128,"mode":3,"speed_mps":10,"time":"2025-01-01T00:04:30.000Z","track_deg":92.5}
/// ```
/// The fields are STATUS's `last_fix` (`time` is the fix's), without the ages.
public struct FixEvent: FixedClassMessage, Equatable {
    public static let wireClass = "FIX"

    public var time: Date
    public var lat: Double
    public var lon: Double
    public var mode: Int
    public var accuracyM: Double?
    public var speedMps: Double?
    public var trackDeg: Double?
    public var satellites: Int?

    public init(time: Date, lat: Double, lon: Double, mode: Int, accuracyM: Double? = nil, speedMps: Double? = nil,
                trackDeg: Double? = nil, satellites: Int? = nil) {
        let f = StatusReply.LastFix(time: time, lat: lat, lon: lon, mode: mode, accuracyM: accuracyM, speedMps: speedMps,
                                    trackDeg: trackDeg, satellites: satellites)
        self.init(f)
    }

    /// The same fix as STATUS's `last_fix` gives it (rounded the same way).
    public init(_ f: StatusReply.LastFix) {
        time = f.time
        lat = f.lat
        lon = f.lon
        mode = f.mode
        accuracyM = f.accuracyM
        speedMps = f.speedMps
        trackDeg = f.trackDeg
        satellites = f.satellites
    }

    /// As STATUS's `last_fix` (no ages: a FIX is read as it happens).
    public var lastFix: StatusReply.LastFix {
        StatusReply.LastFix(time: time, lat: lat, lon: lon, mode: mode, accuracyM: accuracyM, speedMps: speedMps,
                            trackDeg: trackDeg, satellites: satellites)
    }

    /// Decodes a FIX line, checked as STATUS's `last_fix` is (ranges, finite numbers); nil when
    /// the line is of another class.
    public static func decode(line: some StringProtocol) throws(ProtocolError) -> FixEvent? {
        guard WireCoding.className(of: line) == wireClass else { return nil }
        let e = try WireCoding.decode(FixEvent.self, from: line)
        guard (-90...90).contains(e.lat), (-180...180).contains(e.lon) else {
            throw ProtocolError(.outOfRange, command: nil, field: "lat", "FIX: a position outside ±90°/±180°")
        }
        guard e.accuracyM.map({ $0.isFinite && $0 >= 0 }) ?? true, e.speedMps.map({ $0.isFinite && $0 >= 0 }) ?? true,
              e.trackDeg.map(\.isFinite) ?? true else {
            throw ProtocolError(.outOfRange, command: nil, field: "accuracy_m", "FIX: a negative or non-finite accuracy, speed or course")
        }
        return e
    }
}

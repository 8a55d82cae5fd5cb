import CGPS
import Foundation
import HotColdCore

/// Turns what the last `gps_read` left in `gps_data_t` into a ``GPSDEvent``.
///
/// gpsd 3.22 (API 11) facts this relies on, checked against a real gpsd:
/// - a TPV sets `STATUS_SET|MODE_SET` (plus `TIME_SET`, `LATLON_SET`, … for the fields present);
///   SKY sets `SATELLITE_SET`, VERSION/DEVICES/WATCH/DEVICE set neither. `MODE_SET` marks a TPV.
/// - libgps resets every TPV field it does not find to NaN (or 0 for the time), so a TPV never
///   inherits an older position.
/// - `fix.status` is 0 for an ordinary fix; `fix.mode` is the one to use.
/// - DOPs and `satellites_used` come from SKY, which follows the TPV of the same cycle: they
///   are the previous cycle's figures.
enum GPSDFixTranslation {
    /// The report in `data`, or nil when the message was not a TPV.
    ///
    /// This is the gpsd trust boundary, so every field is checked here, once, per fix (a few
    /// comparisons): a mode outside 0…3 is no fix; a latitude outside ±90°, a longitude outside
    /// ±180° or NaN is no position; a time that is not a GPS time (``FixBounds/time``, or a
    /// malformed timespec) makes the report untimed; negative, NaN, infinite or absurd error
    /// figures, speed, course, DOP, altitude and satellite counts become unknown (``Fix``'s
    /// initialiser applies ``FixBounds``). Nothing here converts a double to an integer.
    static func input(from data: UnsafePointer<gps_data_t>, skySeen: Bool,
                      receivedAt: ContinuousClock.Instant) -> GPSDEvent? {
        let set = data.pointee.set
        guard set & gps_mask_t(MODE_SET) != 0 else { return nil }
        let f = data.pointee.fix
        let mode = Self.mode(f.mode)
        guard set & gps_mask_t(TIME_SET) != 0, let seconds = Self.seconds(f.time) else {
            return .untimed(mode: mode, receivedAt: receivedAt)
        }
        var coordinate: Coordinate?
        if mode >= .twoD, set & gps_mask_t(LATLON_SET) != 0 {
            let c = Coordinate(latitude: f.latitude, longitude: f.longitude)
            if c.isValid { coordinate = c }
        }
        var altitude: Double? = f.altMSL.isFinite ? f.altMSL : nil
        if altitude == nil, f.altHAE.isFinite, f.geoid_sep.isFinite {
            altitude = f.altHAE - f.geoid_sep
        }
        let used = data.pointee.satellites_used
        let fix = Fix(
            time: Date(timeIntervalSince1970: seconds), coordinate: coordinate, mode: mode,
            epx: f.epx, epy: f.epy, eph: f.eph,
            hdop: skySeen ? data.pointee.dop.hdop : nil,
            speed: f.speed, track: f.track, altitude: altitude,
            satellites: skySeen && used > 0 ? Int(used) : nil)
        return .fix(fix, receivedAt: receivedAt)
    }

    /// gpsd's mode; anything outside 0…3 (libgps stores whatever integer the line held) is no fix.
    static func mode(_ raw: Int32) -> Fix.Mode {
        Fix.Mode(rawValue: Int(raw)) ?? .noFix
    }

    /// Seconds since 1970 of a TPV's time, or nil when it is unset (0), malformed (nanoseconds
    /// outside 0..<10⁹) or not a GPS time (libgps turns "garbage", year 1900 or year 99999 into
    /// timespecs as readily as real times).
    static func seconds(_ t: timespec) -> Double? {
        guard t.tv_sec != 0 || t.tv_nsec != 0, (0..<1_000_000_000).contains(t.tv_nsec) else { return nil }
        let s = Double(t.tv_sec) + Double(t.tv_nsec) / 1_000_000_000
        return FixBounds.isPlausible(time: s) ? s : nil
    }

    /// True when the message was gpsd's reply to our `?WATCH` (libgps sets `POLICY_SET`).
    static func isWatchReply(_ data: UnsafePointer<gps_data_t>) -> Bool {
        data.pointee.set & gps_mask_t(POLICY_SET) != 0
    }

    static func isSky(_ data: UnsafePointer<gps_data_t>) -> Bool {
        data.pointee.set & gps_mask_t(SATELLITE_SET) != 0
    }
}

import CGPS
import Foundation
import HotColdCore

/// Turns what the last `gps_read` left in `gps_data_t` into a ``GPSDInput``.
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
    static func input(from data: UnsafePointer<gps_data_t>, skySeen: Bool,
                      receivedAt: UInt64) -> GPSDInput? {
        let set = data.pointee.set
        guard set & gps_mask_t(MODE_SET) != 0 else { return nil }
        let f = data.pointee.fix
        let mode = Fix.Mode(rawValue: Int(f.mode)) ?? .unknown
        guard set & gps_mask_t(TIME_SET) != 0, f.time.tv_sec != 0 || f.time.tv_nsec != 0 else {
            return .untimed(mode: mode, receivedAt: receivedAt)
        }
        let seconds = Double(f.time.tv_sec) + Double(f.time.tv_nsec) / 1_000_000_000
        // A time no ISO-8601 line can carry (libgps reads "0x020-03-18T…" as year -1).
        guard ISO8601.representable.contains(seconds) else {
            return .untimed(mode: mode, receivedAt: receivedAt)
        }
        let time = Date(timeIntervalSince1970: seconds)

        var coordinate: Coordinate?
        if set & gps_mask_t(LATLON_SET) != 0, f.latitude.isFinite, f.longitude.isFinite {
            coordinate = Coordinate(latitude: f.latitude, longitude: f.longitude)
        }
        var altitude: Double? = f.altMSL.isFinite ? f.altMSL : nil
        if altitude == nil, f.altHAE.isFinite, f.geoid_sep.isFinite {
            altitude = f.altHAE - f.geoid_sep
        }
        let used = data.pointee.satellites_used
        let fix = Fix(
            time: time, coordinate: coordinate, mode: mode,
            epx: f.epx, epy: f.epy, eph: f.eph,
            hdop: skySeen ? data.pointee.dop.hdop : nil,
            speed: f.speed, track: f.track, altitude: altitude,
            satellites: skySeen && used > 0 ? Int(used) : nil)
        return .fix(fix, receivedAt: receivedAt)
    }

    /// True when the message was gpsd's reply to our `?WATCH` (libgps sets `POLICY_SET`).
    static func isWatchReply(_ data: UnsafePointer<gps_data_t>) -> Bool {
        data.pointee.set & gps_mask_t(POLICY_SET) != 0
    }

    static func isSky(_ data: UnsafePointer<gps_data_t>) -> Bool {
        data.pointee.set & gps_mask_t(SATELLITE_SET) != 0
    }
}

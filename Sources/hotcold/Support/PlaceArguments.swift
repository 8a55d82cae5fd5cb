import ArgumentParser
import HotColdCore

/// Coordinates and distances typed on the command line, read with a message that says what is
/// wrong (a latitude beyond ±90 is most often LON,LAT swapped; "10 km" needs no space).
enum PlaceArguments {
    /// `LAT,LON` in decimal degrees.
    static func coordinate(_ text: String) throws -> Coordinate {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2,
              let lat = Double(parts[0].trimmingCharacters(in: .whitespaces)),
              let lon = Double(parts[1].trimmingCharacters(in: .whitespaces)),
              lat.isFinite, lon.isFinite
        else {
            throw ValidationError("\"\(text)\" is not LAT,LON in decimal degrees, such as -30.2748,153.1338")
        }
        if abs(lat) > 90 {
            let swapped = abs(lon) <= 90 && abs(lat) <= 180 ? " (swapped? write LAT,LON: \(lon),\(lat))" : ""
            throw ValidationError("latitude \(parts[0]) is outside ±90\(swapped)")
        }
        if abs(lon) > 180 { throw ValidationError("longitude \(parts[1]) is outside ±180") }
        return Coordinate(latitude: lat, longitude: lon)
    }

    /// A distance above 0 and at most `limit` metres, such as `850m`, `1.2km` or `10km` (a bare
    /// number is metres); `unit` is a word typed after it, as in `roam 10 km`.
    static func metres(_ text: String, unit: String? = nil, limit: Double) throws -> Double {
        if let unit {
            if DistanceParser.metres(text + unit) != nil, DistanceParser.metres(text) != nil {
                throw ValidationError("write \(text)\(unit), without a space")
            }
            throw ValidationError("unexpected \"\(unit)\" after the distance \(text)")
        }
        guard let m = DistanceParser.metres(text) else {
            throw ValidationError("\"\(text)\" is not a distance: write a number with m or km, such as 850m, 1.2km or 10km")
        }
        guard m > 0 else { throw ValidationError("the distance must be above 0 (\(text) given)") }
        guard m <= limit else {
            throw ValidationError("\(text) is too far: at most \(DistanceFormat.text(limit))")
        }
        return m
    }
}

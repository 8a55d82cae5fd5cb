/// Human distances as the CLI and the live view show them.
///
/// Under 1 km in whole metres (`850 m`), 1–10 km with one decimal (`1.2 km`), from 10 km in
/// whole kilometres (`12 km`): the precision a driver can use, no more.
public enum DistanceFormat {
    public static func text(_ metres: Double) -> String {
        guard metres.isFinite else { return "?" }
        let m = max(0, metres)
        let whole = m.rounded()
        if whole < 1000 { return "\(Int(whole)) m" }
        if m < 9_950 {  // one decimal below 10 km, and small enough for Int()
            let t = Int((m / 100).rounded())
            return "\(t / 10).\(t % 10) km"
        }
        // Past Int's range (1e300 from a broken source) the whole number is still printable.
        let km = (m / 1000).rounded()
        return Int(exactly: km).map { "\($0) km" } ?? "\(km) km"
    }

    /// Sixteen-point compass name for a bearing in degrees (`NNE`, `SW`, ...).
    public static func compass(_ bearing: Double) -> String {
        let names = ["N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE",
                     "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW"]
        guard bearing.isFinite else { return "?" }
        var b = bearing.truncatingRemainder(dividingBy: 360)
        if b < 0 { b += 360 }
        return names[Int((b / 22.5).rounded()) % 16]
    }
}

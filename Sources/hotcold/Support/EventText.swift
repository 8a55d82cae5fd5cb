import HotColdCore
import HotColdScreen
import HotColdUnix

/// One readable line per event, for `replay --format text` and the `hotcold watch` live view.
///
/// `clock` shortens the time to the local HH:MM:SS (live, the date is today's); `colour` paints the trend
/// (red hotter, blue colder) and highlights arrivals with ANSI escapes. A coloured line is
/// printed as it is (`OutputBuffer.painted`), so every name in it is made safe here.
enum EventText {
    static func line(_ e: Event, colour: Bool = false, clock: Bool = false) -> String {
        func paint(_ s: String, _ code: String) -> String { colour ? "\u{1B}[\(code)m\(s)\u{1B}[0m" : s }
        // Live, the local clock a person reads; a replay keeps the recording's own UTC times.
        let time = clock ? LocalTime.clock(e.time) : ISO8601.format(e.time)
        switch e {
        case .proximity(let p):
            let trend: String
            switch p.trend {
            case .hotter: trend = paint("hotter", "31")
            case .colder: trend = paint("colder", "34")
            case .steady, .unknown: trend = p.trend.rawValue
            }
            var s = "\(time)  \(name(p.target)): \(DistanceFormat.text(p.distance)) \(DistanceFormat.compass(p.bearing))"
            s += ", \(safe(p.tierName)), \(trend)"
            if let eta = p.eta { s += ", eta \(TimeText.eta(eta))" }
            return s
        case .arrived(let p) where p.target.kind == .friend:
            return paint("\(time)  MET \(safe(p.target.name)) (\(DistanceFormat.text(p.distance)))", "1;7;31")
        case .departed(let p) where p.target.kind == .friend:
            return paint("\(time)  PARTED from \(safe(p.target.name)) (\(DistanceFormat.text(p.distance)))", "1")
        case .arrived(let p):
            return paint("\(time)  ARRIVED at \(safe(p.target.name)) (\(DistanceFormat.text(p.distance)))", "1;7;31")
        case .departed(let p):
            return paint("\(time)  DEPARTED from \(safe(p.target.name)) (\(DistanceFormat.text(p.distance)))", "1")
        case .gps(let g):
            return paint("\(time)  GPS \(g.state.rawValue)", "2")
        }
    }

    /// A friend on the radar is named as one: "Jane (friend)".
    static func name(_ t: TargetRef) -> String { t.kind == .friend ? "\(safe(t.name)) (friend)" : safe(t.name) }

    static func safe(_ s: String) -> String { TerminalText.safe(s) }
}

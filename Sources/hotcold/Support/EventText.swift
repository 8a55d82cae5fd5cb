import HotColdCore

/// One readable line per event for `--format text` and `hotcold watch`.
enum EventText {
    static func line(_ e: Event) -> String {
        let time = ISO8601.format(e.time)
        switch e {
        case .proximity(let p):
            var s = "\(time)  \(p.target.name): \(DistanceFormat.text(p.distance)) \(DistanceFormat.compass(p.bearing))"
            s += ", \(p.tierName), \(p.trend.rawValue)"
            if let eta = p.eta { s += ", eta \(Int(eta.rounded())) s" }
            return s
        case .arrived(let p):
            return "\(time)  ARRIVED at \(p.target.name) (\(DistanceFormat.text(p.distance)))"
        case .departed(let p):
            return "\(time)  DEPARTED from \(p.target.name) (\(DistanceFormat.text(p.distance)))"
        case .gps(let g):
            return "\(time)  GPS \(g.state.rawValue)"
        }
    }
}

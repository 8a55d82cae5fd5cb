import Foundation

extension Event {
    /// The event as one line of the wire schema (no trailing newline). Byte-identical for equal
    /// events. Without a sequence number: what `hotcold replay` prints.
    public var jsonLine: String { encoded(seq: nil) }

    /// The event as the daemon publishes it (socket and log): `"seq":N` right after `"class"`.
    ///
    /// ```swift
    /// event.jsonLine(seq: 42)   // {"class":"ARRIVED","seq":42,"time":…}
    /// ```
    public func jsonLine(seq: Int) -> String { encoded(seq: seq) }

    @inline(__always)
    private func encoded(seq: Int?) -> String {
        var o = JSONLine(class: className)
        if let seq { o.add("seq", seq) }
        o.add("time", time: time)
        switch self {
        case .proximity(let p):
            o.addRaw("target", json: p.target.json)
            o.add("distance_m", p.distance, decimals: 3)
            o.add("bearing_deg", p.bearing, decimals: 1)
            o.add("tier", p.tier)
            o.add("tier_name", p.tierName)
            o.add("trend", p.trend.rawValue)
            o.addIfPresent("accuracy_m", p.accuracy, decimals: 1)
            o.addIfPresent("speed_mps", p.speed, decimals: 2)
            o.addIfPresent("eta_s", p.eta, decimals: 0)
        case .arrived(let p), .departed(let p):
            o.addRaw("target", json: p.target.json)
            o.add("distance_m", p.distance, decimals: 3)
        case .gps(let g):
            o.add("state", g.state.rawValue)
        }
        return o.text
    }

    /// Reads one wire line back. Throws `EventDecodingError` naming the problem.
    public init(jsonLine line: some StringProtocol) throws {
        let data = Data(line.utf8)
        let w: Wire
        do {
            w = try JSONDecoder().decode(Wire.self, from: data)
        } catch {
            throw EventDecodingError(message: "not an event object: \(error)")
        }
        guard let time = ISO8601.parse(w.time) else {
            throw EventDecodingError(message: "field time: not an ISO-8601 time: \(w.time)")
        }
        func need<T>(_ v: T?, _ field: String) throws -> T {
            guard let v else { throw EventDecodingError(message: "\(w.class) without field \(field)") }
            return v
        }
        switch w.class {
        case "PROXIMITY":
            self = .proximity(Proximity(
                time: time, target: try need(w.target, "target"),
                distance: try need(w.distance_m, "distance_m"),
                bearing: try need(w.bearing_deg, "bearing_deg"),
                tier: try need(w.tier, "tier"), tierName: try need(w.tier_name, "tier_name"),
                trend: try need(w.trend, "trend"),
                accuracy: w.accuracy_m, speed: w.speed_mps, eta: w.eta_s))
        case "ARRIVED":
            self = .arrived(Passage(time: time, target: try need(w.target, "target"),
                                    distance: try need(w.distance_m, "distance_m")))
        case "DEPARTED":
            self = .departed(Passage(time: time, target: try need(w.target, "target"),
                                     distance: try need(w.distance_m, "distance_m")))
        case "GPS":
            self = .gps(GPSChange(time: time, state: try need(w.state, "state")))
        default:
            throw EventDecodingError(message: "unknown event class \(w.class)")
        }
    }

    private struct Wire: Decodable {
        var `class`: String
        var seq: Int?
        var time: String
        var target: TargetRef?
        var distance_m: Double?
        var bearing_deg: Double?
        var tier: Int?
        var tier_name: String?
        var trend: Trend?
        var accuracy_m: Double?
        var speed_mps: Double?
        var eta_s: Double?
        var state: GPSState?
    }
}

public struct EventDecodingError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

extension TargetRef {
    /// `{"id":…,"name":…,"kind":…}`
    public var json: String {
        var s = "{\"id\":"
        JSONLine.appendQuoted(id, to: &s)
        s.append(",\"name\":")
        JSONLine.appendQuoted(name, to: &s)
        s.append(",\"kind\":")
        JSONLine.appendQuoted(kind.rawValue, to: &s)
        s.append("}")
        return s
    }
}

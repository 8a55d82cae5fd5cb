import HotColdCore

/// Checks what every event line must be: only finite numbers (no inf or nan), parsed back by
/// `Event(jsonLine:)` and re-encoded to the same bytes; distances ≥ 0, bearings in [0, 360],
/// tiers on the default ladder.
public func checkEvent(_ event: Event) {
    let line = event.jsonLine
    for bad in [":inf", ":-inf", ":nan", ":-nan", "Infinity", "NaN"] {
        fuzzCheck(!line.contains(bad), "non-finite number in \(line)")
    }
    let back: Event
    do { back = try Event(jsonLine: line) } catch {
        fuzzCheck(false, "\(line) does not parse back: \(error)")
        return
    }
    fuzzCheck(back.jsonLine == line, "\(line) re-encodes as \(back.jsonLine)")
    switch event {
    case .proximity(let p):
        fuzzCheck(p.distance.isFinite && p.distance >= 0, "distance \(p.distance)")
        fuzzCheck(p.bearing.isFinite && p.bearing >= 0 && p.bearing <= 360, "bearing \(p.bearing)")
        fuzzCheck(p.tier >= 0 && p.tier < EngineConfig.default.tiers.tiers.count, "tier \(p.tier)")
        for v in [p.accuracy, p.speed, p.eta] { fuzzCheck(v?.isFinite ?? true, "optional figure \(String(describing: v))") }
    case .arrived(let p), .departed(let p):
        fuzzCheck(p.distance.isFinite && p.distance >= 0, "distance \(p.distance)")
    case .gps:
        break
    }
}

import HotColdCore
import HotColdProtocol

/// Checks what every event line must be: only finite numbers (no inf or nan), parsed back by
/// the protocol's one definition of events and re-encoded to the same bytes; distances ≥ 0, bearings in [0, 360],
/// tiers on the default ladder.
public func checkEvent(_ event: Event) {
    let line = EventMessage(event).line
    for bad in [":inf", ":-inf", ":nan", ":-nan", "Infinity", "NaN"] {
        fuzzCheck(!line.contains(bad), "non-finite number in \(line)")
    }
    let back: EventMessage
    do {
        guard let m = try EventMessage.decode(line: line) else {
            fuzzCheck(false, "\(line) is not read back as an event")
            return
        }
        back = m
    } catch {
        fuzzCheck(false, "\(line) does not parse back: \(error)")
        return
    }
    fuzzCheck(back.line == line, "\(line) re-encodes as \(back.line)")
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

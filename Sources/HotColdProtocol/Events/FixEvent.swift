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
/// A FIX is STATUS's `last_fix` under its own class, without the ages (it is read as it
/// happens): one struct, `StatusReply.LastFix`, is both, so the two cannot drift apart.
public typealias FixEvent = StatusReply.LastFix

extension StatusReply.LastFix: FixedClassMessage {
    public static let wireClass = "FIX"

    /// Decodes a FIX line, checked as STATUS's `last_fix` is (ranges, finite numbers); nil when
    /// the line is of another class. Ages on the line, which a FIX has not, are left out.
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
        return e.withoutAges
    }

    /// The fix as it is on its own (a FIX; the MQTT bridge's retained STATE): without the ages,
    /// which hold only for the moment a `status` was answered.
    public var withoutAges: FixEvent {
        var f = self
        f.ageS = nil
        f.clockOffsetS = nil
        return f
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Distances as people type them: `850m`, `1.2km`, `10 km`; a bare number is metres.
public enum DistanceParser {
    /// Metres, or nil when the text is not a non-negative distance with a known unit.
    public static func metres(_ text: some StringProtocol) -> Double? {
        let s = text.trimmingBlanks().lowercased()
        var unit = 1.0
        var number = Substring(s)
        for (suffix, factor) in [("km", 1000.0), ("m", 1.0)] where s.hasSuffix(suffix) {
            unit = factor
            number = s.dropLast(suffix.count)
            break
        }
        guard let v = Double(number.trimmingBlanks()), v.isFinite, v >= 0 else { return nil }
        return v * unit
    }
}

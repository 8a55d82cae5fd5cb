import Foundation
import HotColdCore
import HotColdDaemonTesting
import Testing

/// Times that `ISO8601.format` cannot write readably (found by `scripts/fuzz`, tpv-engine: an
/// event carried `"time":"00-1-12-31T00:00:00.000Z"`).
@Suite(.offCooperativePool) struct ISO8601RangeTests {
    @Test("parse refuses times outside years 0000–9999 that an offset pushes out")
    func parseRefusesUnrepresentable() {
        #expect(ISO8601.parse("0000-01-01T00:00:00+01:00") == nil)
        #expect(ISO8601.parse("9999-12-31T23:30:00-01:00") == nil)
    }

    @Test("the ends of the range round-trip through format and parse")
    func endsRoundTrip() throws {
        for t in [ISO8601.representable.lowerBound, ISO8601.representable.upperBound, 0] {
            let text = ISO8601.format(Date(timeIntervalSince1970: t))
            let back = try #require(ISO8601.parse(text), "\(text) does not parse")
            #expect(ISO8601.format(back) == text)
        }
        #expect(ISO8601.format(Date(timeIntervalSince1970: ISO8601.representable.lowerBound)) == "0000-01-01T00:00:00.000Z")
        #expect(ISO8601.format(Date(timeIntervalSince1970: ISO8601.representable.upperBound)) == "9999-12-31T23:59:59.999Z")
    }
}

import Foundation
import PropertyBased
import HotColdDaemonTesting
import Testing
@testable import HotColdCore

/// The velocity check's short series for a course's sine and cosine stay within 1e-9 of the
/// library's (a course reported to 0.01° is known to 2e-4), exact on the axes.
@Suite(.offCooperativePool) struct CourseSinCosTests {
    @Test func agreesWithTheLibraryEverywhere() async {
        await propertyCheck(count: 5000, input: Gen.double(in: -1000...1000)) { deg in
            let (s, c) = VelocityJudge.sinCos(degrees: deg)
            let r = deg * .pi / 180
            #expect(abs(s - sin(r)) <= 1e-9 && abs(c - cos(r)) <= 1e-9, "\(deg)°: \(s), \(c)")
        }
    }

    @Test func isExactOnTheAxes() {
        for (deg, want) in [(0.0, (0.0, 1.0)), (90, (1, 0)), (180, (0, -1)), (270, (-1, 0)), (360, (0, 1)), (-90, (-1, 0))] {
            let (s, c) = VelocityJudge.sinCos(degrees: deg)
            #expect(s == want.0 && c == want.1, "\(deg)°: \(s), \(c)")
        }
    }
}

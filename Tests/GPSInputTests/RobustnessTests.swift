import Foundation
import GPSInput
import HotColdCore
import HotColdDaemonTesting
import Testing

/// Damaged copies of real recordings: the readers may refuse a file or skip lines, never crash.
@Suite(.offCooperativePool) struct RobustnessTests {
    @Test(arguments: [
        Recordings.log("haicom-305N.log"),
        Recordings.log("gp-320fw-2019-04-07-coldboot.log"),
        Recordings.replay("haicom-305N.log"),
        Recordings.tracks.appendingPathComponent("gpsbabel-igc1.gpx").path,
    ])
    func mutatedCopiesNeverCrash(_ path: String) throws {
        let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        // A fixed linear congruential sequence, so any failure reproduces.
        var state: UInt64 = 0x5EED
        func random(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        for round in 0..<25 {
            var bytes = original
            for _ in 0..<(1 + round * 4) {
                switch random(4) {
                case 0: bytes[random(bytes.count)] = UInt8(random(256))
                case 1: bytes.remove(at: random(bytes.count))
                case 2: bytes.insert([0x24, 0x2C, 0x2A, 0x0A, 0x3C, 0x3E, 0x22, 0x7B, 0x00][random(9)], at: random(bytes.count))
                default: bytes.removeLast(random(min(200, bytes.count - 1)))
                }
            }
            let file = try Recordings.temporaryFile(bytes)
            do {
                let reader = try TrackReader(path: file)
                var count = 0
                while let fix = try reader.next() {
                    count += 1
                    #expect(fix.coordinate?.isValid ?? true)
                }
                #expect(reader.stats.fixes == count)
            } catch is TrackReadError {
                // Refusing a file that no longer looks like a track is fine.
            }
            try? FileManager.default.removeItem(atPath: file)
        }
    }
}

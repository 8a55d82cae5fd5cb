import Foundation
import HotColdConfig
import HotColdDaemonTesting
import Testing

/// `[friends]`: how long a silent friend stays current, and on the radar.
@Suite(.offCooperativePool) struct FriendsConfigTests {
    @Test func defaultsAndValuesAreRead() throws {
        #expect(Configuration().friends.staleAfterSeconds == 300 && Configuration().friends.forgetAfterSeconds == 3600)
        let c = try ConfigLoader.parse("[friends]\nstale_after = 60\nforget_after = 600.5\n", file: "t.toml")
        #expect(c.friends.staleAfterSeconds == 60 && c.friends.forgetAfterSeconds == 600.5)
    }

    @Test func badValuesNameTheirKeyAndLine() {
        let cases: [(String, String, Int)] = [
            ("[friends]\nstale_after = 0\n", "friends.stale_after", 2),
            ("[friends]\n\nforget_after = 1e9\n", "friends.forget_after", 3),
            ("[friends]\nstale_after = \"5 minutes\"\n", "friends.stale_after", 2),
            ("[friends]\nstale_after = 900\nforget_after = 600\n", "friends.forget_after", 3),
            ("[friends]\nclub = \"hotcold/club\"\n", "friends.club", 2),
        ]
        for (text, key, line) in cases {
            let e = #expect(throws: ConfigError.self) { try ConfigLoader.parse(text, file: "bad.toml") }
            #expect(e?.key == key, "\(text)")
            #expect(e?.line == line, "\(text): \(String(describing: e))")
        }
    }
}

import Foundation
import HotColdCore
import HotColdProtocol
import HotColdDaemonTesting
import Testing
@testable import HotColdScreen

/// A target's name from a catalogue or a friend's device reaches the live screen as text: no
/// control character and no bidirectional override (which would reorder what is drawn after
/// it on the line) is ever drawn.
@Suite(.offCooperativePool) struct ScreenControlCharacterTests {
    typealias F = ScreenFixtures

    @Test func aNameWithEscapesOrABidiOverrideIsDrawnAsText() {
        var m = ScreenModel(socketPath: "/s", now: F.t0)
        m.apply(F.status([F.target("a", "Big\u{1B}[2J\u{202E}ananaB", 400, tier: 6, tierName: "hot"),
                          F.target("b", "Pine\u{2067}apple\u{9B}31m", 900, tier: 4, tierName: "mild")]))
        // The screen's own colours (SGR) taken away: what is left is what the names brought.
        let drawn = ScreenRenderer.render(m, width: 60, height: 20, style: .colour).map(F.strip).joined(separator: "\n")
        let acted = drawn.unicodeScalars.filter { $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value)
            || (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value) }
        #expect(acted.isEmpty, "\(drawn.debugDescription)")
        #expect(drawn.contains("Big\u{FFFD}[2J\u{FFFD}ananaB"), "\(drawn)")
    }
}

import Foundation
import HotColdCore
import HotColdDaemonTesting
import Testing
@testable import HotColdScreen

@Suite(.offCooperativePool) struct ScreenRendererTests {
    typealias F = ScreenFixtures

    func plain(_ m: ScreenModel, _ w: Int, _ h: Int, _ style: ScreenStyle = .colour) -> [String] {
        ScreenRenderer.render(m, width: w, height: h, style: style).map(F.strip)
    }

    @Test func fullLayoutShowsTheFocusLargeAndTheOthersBelow() {
        let lines = plain(F.hunt(), 60, 20)
        let text = lines.joined(separator: "\n")
        #expect(lines.count <= 20)
        #expect(lines[0].hasPrefix("3D fix  9 sat  ±5m  3s ago"), "\(lines[0])")
        #expect(lines.contains("Big Banana"))
        #expect(lines.contains { $0.hasPrefix("850 m  ↗ NE") })
        #expect(lines.contains { $0.hasSuffix(" hot") && $0.contains("█") })
        #expect(lines.contains("▲ hotter   ETA 2 min"))
        // Others nearest first, each with distance, arrow, tier and trend symbol.
        let rows = lines.filter { $0.hasPrefix("Big Prawn") || $0.hasPrefix("Giant Koala") || $0.hasPrefix("Big Pineapple") }
        #expect(rows.count == 3)
        #expect(rows[0].hasPrefix("Giant Koala") && rows[0].hasSuffix("2.0 km ← cool     ?"), "\(rows[0])")
        #expect(rows[1].hasSuffix("4.5 km ↑ cool     ▼"), "\(rows[1])")
        #expect(rows[2].hasSuffix("12 km ↓ freezing ="), "\(rows[2])")
        #expect(lines.last == "● hotcoldd · hunt · n/p focus · q quits")
        #expect(text.contains("Big Banana"))
    }

    /// The focus's distance, three rows tall under its name in the tier's colour: "850 m".
    @Test func theDistanceIsDrawnBigWhenThereIsRoom() throws {
        let lines = plain(F.hunt(), 60, 20)
        let name = try #require(lines.firstIndex(of: "Big Banana"))
        #expect(Array(lines[(name + 1)...(name + 3)]) == [
            "█▀█ █▀▀ █▀█   ▄▄▄▄      ▄▄█",
            "█▀█ ▀▀█ █ █   █ █ █    ▄▀ █",
            "▀▀▀ ▀▀▀ ▀▀▀   ▀ ▀ ▀   ▀    ",
        ], "\(lines)")
        #expect(lines[name + 4].hasPrefix("850 m  ↗ NE"))
        let coloured = ScreenRenderer.render(F.hunt(), width: 60, height: 20, style: .colour)
        #expect(coloured[name + 1].hasPrefix("\u{1B}[31m█▀█ █▀▀"), "hot is red: \(coloured[name + 1].debugDescription)")
        // Not in plain style, not when wider than the screen, and the first to go when short
        // (after the other targets): 11 rows keep the four focus lines, banner and footer.
        #expect(!plain(F.hunt(), 60, 20, .plain).contains { $0.contains("█▀▀") })
        #expect(!plain(F.hunt(), 18, 20).contains { $0.contains("█▀▀") })
        #expect(plain(F.hunt(), 19, 20).contains { $0.hasPrefix("█▀█ █▀▀ █▀█") })
        // The three rows stay or go together: 9 rows hold banner, name, big digits, distance,
        // tier, trend and footer (the spacing and the others gone); 8 rows drop the digits and
        // give their room to the two nearest other targets.
        let nine = plain(F.hunt(), 60, 9)
        #expect(nine.filter { $0.contains("▀") && !$0.contains("░") }.count == 3 && !nine.contains { $0.hasPrefix("Giant Koala") }, "\(nine)")
        let eight = plain(F.hunt(), 60, 8)
        #expect(!eight.contains { $0.contains("█▀▀") } && eight.contains { $0.hasPrefix("850 m") } && eight.count == 8
                && eight[5].hasPrefix("Giant Koala") && eight[7].hasPrefix("● hotcoldd"), "\(eight)")
    }

    @Test("every character DistanceFormat writes has a glyph, and every glyph is 3 rows of one width")
    func bigTextCoversDistances() throws {
        for m in [0.0, 7, 99.4, 850, 999.4, 1_000, 1_234, 9_949, 9_951, 12_345, 987_654, 20_000_000] {
            let text = DistanceFormat.text(m)
            let rows = try #require(BigText.rows(text), "\(text)")
            #expect(rows.count == 3 && Set(rows.map(DisplayWidth.of)).count == 1 && DisplayWidth.of(rows[0]) == BigText.width(text))
        }
        #expect(BigText.rows("850 ft") == nil && BigText.width("?") == nil)
    }

    @Test func tinyTerminalKeepsNameDistanceTierAndTrend() {
        let lines = plain(F.hunt(), 20, 6)
        #expect(lines.count == 6)
        #expect(lines.contains("Big Banana"))
        #expect(lines.contains { $0.hasPrefix("850 m  ↗ NE") })
        #expect(lines.contains { $0.hasSuffix("hot") })
        #expect(lines.contains { $0.hasPrefix("▲ hotter") })
        #expect(lines.contains { $0.hasPrefix("3D fix") })
        for l in lines { #expect(DisplayWidth.of(l) <= 20, "\(l)") }
        // Two rows: name and distance, nothing else.
        #expect(plain(F.hunt(), 12, 2) == ["Big Banana", "850 m  ↗ NE"])
        #expect(plain(F.hunt(), 9, 2) == ["Big Bana…", "850 m  ↗…"])
        #expect(plain(F.hunt(), 12, 1) == ["Big Banana"])
        #expect(plain(F.hunt(), 0, 5).isEmpty && plain(F.hunt(), 5, 0).isEmpty)
    }

    @Test(arguments: [(1, 1), (3, 3), (20, 6), (33, 9), (40, 10), (60, 20), (80, 24), (132, 50)])
    func noLineIsWiderOrLongerThanTheTerminal(size: (Int, Int)) {
        let names = ["大きいバナナ の 看板 とても 長い 名前 です ね", "🍌🍌 Banana 🍌🍌 with emoji all the way 🍌",
                     "Cafe\u{301} de\u{301}ja\u{300} vu, combining marks everywhere in this name", String(repeating: "W", count: 300)]
        for name in names {
            for style in [ScreenStyle.colour, .monochrome, .plain] {
                let lines = ScreenRenderer.render(F.hunt(name: name), width: size.0, height: size.1, style: style)
                #expect(lines.count <= size.1)
                for l in lines {
                    #expect(DisplayWidth.of(F.strip(l)) <= size.0, "\(size) \(style): \(l)")
                }
            }
        }
    }

    @Test func longNamesAreCutWithAnEllipsis() {
        let long = "The Big Merino at Goulburn, the world's largest concrete sheep, three storeys high"
        let lines = plain(F.hunt(name: long), 30, 20)
        let name = lines.first { $0.hasPrefix("The Big Merino") }
        #expect(name == "The Big Merino at Goulburn, t…")
        #expect(DisplayWidth.of(name ?? "") == 30)
        #expect(DisplayWidth.fit("大きいバナナ", width: 6) == "大き…")
        #expect(DisplayWidth.fit("大きいバナナ", width: 5) == "大き…")
        // Names from the wire are bounded once, when the model takes them.
        #expect(F.hunt(name: String(repeating: "x", count: 5000)).focus?.name.count == 201)
    }

    @Test func controlCharactersInNamesNeverReachTheTerminal() {
        let evil = "Evil\u{1B}[2J\u{1B}]0;owned\u{07}Thing\u{9B}31m"
        let m = F.hunt(name: evil)
        #expect(m.focus?.name == "Evil\u{FFFD}[2J\u{FFFD}]0;owned\u{FFFD}Thing\u{FFFD}31m")
        for l in ScreenRenderer.render(m, width: 60, height: 20, style: .plain) {
            #expect(!l.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "\(l)")
        }
    }

    @Test(arguments: Array(0...7))
    func gaugeTakesTheTiersColourFromBlueToRed(tier: Int) {
        let gauge = ScreenRenderer.gauge(tier: tier, hottest: 7, width: 16, style: .colour)
        #expect(gauge.spans.first?.ink == .hue(tier))
        #expect(gauge.text(.colour).hasPrefix("\u{1B}[\(Ink.hues[tier])m"))
        let filled = gauge.plainText.filter { $0 == "█" }.count
        #expect(filled == (tier + 1) * 2)
        #expect(gauge.width == 16)
        // Without colour the bar's length still tells the tier; plain is ASCII.
        #expect(!gauge.text(.monochrome).contains("\u{1B}[3") && !gauge.text(.monochrome).contains("\u{1B}[9"))
        #expect(ScreenRenderer.gauge(tier: tier, hottest: 7, width: 16, style: .plain).text(.plain)
                == String(repeating: "#", count: filled) + String(repeating: ".", count: 16 - filled))
    }

    @Test func coldIsBlueAndBurningIsRed() {
        #expect(Ink.tier(0, hottest: 7).sgr(.colour) == "34")
        #expect(Ink.tier(7, hottest: 7).sgr(.colour) == "1;91")
        #expect(Ink.tier(6, hottest: 7).sgr(.colour) == "31")
        // A short ladder spreads over the same scale; out-of-range tiers are clamped.
        #expect(Ink.tier(2, hottest: 2).sgr(.colour) == "1;91")
        #expect(Ink.tier(0, hottest: 2).sgr(.colour) == "34")
        #expect(Ink.tier(99, hottest: 7) == .hue(7) && Ink.tier(-3, hottest: 7) == .hue(0))
        let line = ScreenRenderer.render(F.hunt(), width: 60, height: 20, style: .colour)
            .first { F.strip($0).hasSuffix(" hot") }
        #expect(line?.contains("\u{1B}[31mhot\u{1B}[0m") == true)
    }

    @Test(arguments: [(0.0, "↑", "N"), (45, "↗", "NE"), (90, "→", "E"), (135, "↘", "SE"), (180, "↓", "S"),
                      (225, "↙", "SW"), (270, "←", "W"), (315, "↖", "NW"), (359, "↑", "N"), (22, "↑", "NNE"),
                      (23, "↗", "NNE"), (-45, "↖", "NW"), (720, "↑", "N")])
    func arrowPointsAlongTheBearingWhenStanding(bearing: Double, arrow: String, label: String) {
        let a = CompassArrow(bearing: bearing, course: nil)
        #expect(a.arrow == arrow && a.label == label)
    }

    @Test(arguments: [(90.0, 90.0, "↑", "ahead"), (0, 90, "←", "left"), (180, 90, "→", "right"),
                      (270, 90, "↓", "behind"), (10, 350, "↑", "ahead"), (45, 0, "↗", "ahead right"),
                      (200, 0, "↓", "behind")])
    func arrowTurnsWithTheCourseWhenMoving(bearing: Double, course: Double, arrow: String, label: String) {
        let a = CompassArrow(bearing: bearing, course: course)
        #expect(a.arrow == arrow && a.label == label)
    }

    @Test func movingTurnsTheScreensArrowsStandingDoesNot() {
        var m = F.hunt()
        m.apply(F.status([F.target("a", "Big Banana", 850, bearing: 45, tier: 6, tierName: "hot")], speed: 10, track: 90))
        #expect(m.course == 90)
        #expect(plain(m, 60, 20).contains { $0.hasPrefix("850 m  ↖ ahead left") })
        m.apply(F.status([F.target("a", "Big Banana", 850, bearing: 45, tier: 6, tierName: "hot")], speed: 1.0, track: 90))
        #expect(m.course == nil)
        #expect(plain(m, 60, 20).contains { $0.hasPrefix("850 m  ↗ NE") })
    }

    @Test func plainStyleSendsNoEscapes() {
        for l in ScreenRenderer.render(F.hunt(), width: 60, height: 20, style: .plain) {
            #expect(!l.contains("\u{1B}"))
        }
        let mono = ScreenRenderer.render(F.hunt(), width: 60, height: 20, style: .monochrome).joined()
        #expect(mono.contains("\u{1B}[1m") && mono.contains("\u{1B}[7m"))
        #expect(!mono.contains("\u{1B}[3") && !mono.contains("\u{1B}[9"))
    }

    @Test func linkStatesReplaceTheFocus() {
        var m = F.hunt()
        m.lose("hotcoldd closed the connection")
        let gone = plain(m, 40, 10)
        #expect(gone.contains("daemon gone, reconnecting…"))
        #expect(gone.contains("hotcoldd closed the connection"))
        #expect(!gone.joined().contains("Banana"))
        #expect(plain(ScreenModel(socketPath: "/s", now: F.t0), 40, 10).contains("connecting to hotcoldd…"))
        var empty = ScreenModel(socketPath: "/s", now: F.t0)
        empty.apply(F.status([]))
        #expect(plain(empty, 40, 10).contains("no targets tracked"))
    }
}

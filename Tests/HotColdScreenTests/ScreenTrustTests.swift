import Foundation
import HotColdCore
import HotColdProtocol
import HotColdDaemonTesting
import Testing
@testable import HotColdScreen

/// Issue 18: a screen that is never stale and shows the target the user chose.
@Suite(.offCooperativePool) struct ScreenTrustTests {
    typealias F = ScreenFixtures

    func plain(_ m: ScreenModel, _ w: Int, _ h: Int, _ style: ScreenStyle = .colour) -> [String] {
        ScreenRenderer.render(m, width: w, height: h, style: style).map(F.strip)
    }

    func fix(_ status: StatusReply, at time: Date, state: String = "fix") -> StatusReply {
        var s = status
        s.gps.state = state
        s.gps.lastFix?.time = time
        return s
    }

    @Test("the ETA is recomputed from every status's distance, at the engine's rate of approach")
    func etaFollowsEveryStatus() throws {
        var m = F.hunt()                                   // 850 m, ETA 120 s from the event
        #expect(m.focus?.etaS == 120)
        m.apply(F.status([F.target("a", "Big Banana", 400, tier: 6, tierName: "hot")]))
        let eta = try #require(m.focus?.etaS)
        #expect(abs(eta - 400 / (850.0 / 120)) < 0.001, "the new distance at the same rate, not \(eta)")
        #expect(plain(m, 60, 20).contains("▲ hotter   ETA 56 s"))
        // No longer hotter: no ETA.
        m.apply(F.status([F.target("a", "Big Banana", 425, tier: 6, tierName: "hot", trend: "steady")]))
        #expect(m.focus?.etaS == nil)
    }

    @Test("a screen started after the last event still shows an ETA while moving towards the target")
    func etaWithoutAnEventFromSpeedAndCourse() throws {
        var m = ScreenModel(socketPath: "/s", now: F.t0)
        m.apply(F.status([F.target("a", "Big Banana", 1_200, bearing: 0, tier: 4, tierName: "mild")], speed: 20, track: 0))
        let eta = try #require(m.focus?.etaS)
        #expect(abs(eta - 60) < 0.001, "1200 m at 20 m/s straight ahead: \(eta)")
        #expect(plain(m, 60, 20).contains { $0.hasSuffix("ETA 1 min") })
    }

    @Test("the fix's age counts from the last fix: events in between do not reset it")
    func fixAgeIsNotResetByEvents() {
        var m = ScreenModel(socketPath: "/s", now: F.t0)
        m.apply(F.status([F.target("a", "A", 500, tier: 5, tierName: "warm")]))
        m.now = F.t0.addingTimeInterval(13)
        // gpsd lost: the engine's staleness events and a re-evaluation arrive, the status's
        // last fix stays the same.
        m.apply(.gps(.init(time: F.t0.addingTimeInterval(12), state: .lost)))
        m.apply(.proximity(.init(time: F.t0.addingTimeInterval(12), target: TargetRef(id: "a", name: "A", kind: .point),
                                 distance: 500, bearing: 0, tier: 5, tierName: "warm", trend: .steady)))
        m.apply(fix(F.status([F.target("a", "A", 500, tier: 5, tierName: "warm")]), at: F.t0, state: "lost"))
        #expect(m.fixAge == 13)
        // A new fix does reset it.
        m.apply(fix(F.status([F.target("a", "A", 500, tier: 5, tierName: "warm")]), at: F.t0.addingTimeInterval(13)))
        #expect(m.fixAge == 0)
    }

    @Test("old figures are dimmed and labelled, never drawn as if current")
    func staleDataIsDimmedAndLabelled() throws {
        var m = F.hunt()
        m.apply(fix(F.status([F.target("a", "Big Banana", 850, tier: 6, tierName: "hot"),
                              F.target("b", "Big Prawn", 4_500, tier: 3, tierName: "cool")]), at: F.t0, state: "lost"))
        m.now = F.t0.addingTimeInterval(13)
        #expect(m.isStale)
        let colour = ScreenRenderer.render(m, width: 60, height: 20, style: .colour)
        let lines = colour.map(F.strip)
        let i = try #require(lines.firstIndex { $0.hasPrefix("850 m") }, "\(lines)")
        #expect(lines[i].hasSuffix("OLD: fix 13s ago"), "\(lines[i])")
        #expect(colour[i].hasPrefix("\u{1B}[2m850 m"), "dim: \(colour[i].debugDescription)")
        let digits = try #require(colour.firstIndex { F.strip($0).hasPrefix("█▀█ █▀▀") })
        #expect(colour[digits].hasPrefix("\u{1B}[2m"), "the big digits dim too, not in the tier's red")
        let prawn = try #require(colour.first { F.strip($0).hasPrefix("Big Prawn") })
        #expect(!prawn.contains("\u{1B}[3") && prawn.contains("\u{1B}[2m"), "\(prawn.debugDescription)")
        #expect(!lines.contains { $0.contains("ETA") }, "no ETA from old figures")
        // Fresh again: full brightness, no label.
        m.apply(fix(F.status([F.target("a", "Big Banana", 800, tier: 6, tierName: "hot")]), at: F.t0.addingTimeInterval(13)))
        #expect(!m.isStale)
        #expect(!plain(m, 60, 20).contains { $0.contains("OLD") })
    }

    @Test("the focus: hunted target, else the nearest ahead of the car; keys cycle it")
    func focusIsAheadAndCanBeCycled() {
        var m = ScreenModel(socketPath: "/s", now: F.t0)
        var s = F.status([F.target("behind", "Big Prawn", 816, bearing: 180, tier: 4, tierName: "mild"),
                          F.target("ahead", "Big Banana", 1_400, bearing: 10, tier: 3, tierName: "cool")], speed: 25, track: 0)
        s.tracking.mode = "roam"
        m.apply(s)
        #expect(m.focus?.id == "ahead", "816 m behind the car gives way to the one ahead")
        #expect(m.others.map(\.id) == ["behind"])
        // Standing, there is no ahead: the nearest.
        s.gps.lastFix?.speedMps = 0
        m.apply(s)
        #expect(m.focus?.id == "behind")
        // In a hunt every tracked target was chosen: the nearest of them.
        s.gps.lastFix?.speedMps = 25
        s.tracking.mode = "hunt"
        m.apply(s)
        #expect(m.focus?.id == "behind")
        // n moves it on and it stays while tracked; a gives it back.
        m.cycleFocus(by: 1)
        #expect(m.focus?.id == "ahead")
        m.apply(s)
        #expect(m.focus?.id == "ahead")
        #expect(plain(m, 60, 20).last == "● hotcoldd · hunt · n/p focus, a auto · q quits")
        m.cycleFocus(by: 1)
        #expect(m.focus?.id == "behind")
        m.cycleFocus(by: -1)
        #expect(m.focus?.id == "ahead")
        m.clearFocusChoice()
        #expect(m.focus?.id == "behind")
        #expect(plain(m, 60, 20).last == "● hotcoldd · hunt · n/p focus · q quits")
    }

    @Test("the direction is drawn three rows tall beside the digits, and twice as large on a big terminal")
    func bigArrowAndLargeTerminal() throws {
        let lines = plain(F.hunt(), 60, 20)
        let name = try #require(lines.firstIndex(of: "Big Banana"))
        #expect(Array(lines[(name + 1)...(name + 3)]) == [
            "█▀█ █▀▀ █▀█   ▄▄▄▄      ▄▄█",
            "█▀█ ▀▀█ █ █   █ █ █    ▄▀ █",
            "▀▀▀ ▀▀▀ ▀▀▀   ▀ ▀ ▀   ▀    ",
        ], "\(lines)")
        let big = plain(F.hunt(), 160, 50)
        let top = try #require(big.firstIndex(of: "Big Banana"))
        #expect(big[top + 1].hasPrefix("██▀▀██  ██▀▀▀▀  ██▀▀██"), "\(big[top + 1])")
        #expect(big[top + 1] == big[top + 2] && big[top + 6] == big[top + 5] && big[top + 7].hasPrefix("850 m"), "six rows: \(big)")
        for octant in 0..<8 {
            let rows = BigArrow.rows(octant: octant)
            #expect(rows.count == 3 && rows.allSatisfy { DisplayWidth.of($0) == BigArrow.width })
        }
    }

    @Test("the other targets' figures line up in columns next to the longest name, not at the far edge")
    func othersAreAligned() {
        let lines = plain(F.hunt(), 160, 50)
        let names = ["Giant Koala", "Big Prawn", "Big Pineapple"]
        let rows = lines.filter { line in names.contains { line.hasPrefix($0) } }
        #expect(rows == [
            "Giant Koala    2.0 km ← cool     ?",
            "Big Prawn      4.5 km ↑ cool     ▼",
            "Big Pineapple   12 km ↓ freezing =",
        ], "\(rows)")
    }

    @Test("no fix is said as the cause when nothing is tracked for want of a position")
    func noFixRatherThanNoTargets() {
        var m = ScreenModel(socketPath: "/s", now: F.t0)
        var s = F.status([])
        s.gps.state = "nofix"
        s.gps.lastFix = nil
        s.tracking.mode = "roam"
        m.apply(s)
        let lines = plain(m, 60, 12)
        #expect(lines.contains("no fix: no fix"))
        #expect(!lines.contains("no targets tracked"))
    }

    @Test("TERM=dumb frames are ASCII only, laid out as the styled ones")
    func plainIsASCII() {
        var m = F.hunt()
        m.cycleFocus(by: 1)
        for line in ScreenRenderer.render(m, width: 60, height: 20, style: .plain) {
            let ascii = line.unicodeScalars.allSatisfy { $0.isASCII }
            #expect(ascii, "\(line)")
        }
        let lines = ScreenRenderer.render(F.hunt(), width: 60, height: 20, style: .plain)
        #expect(lines.contains { $0.hasPrefix("850 m  / NE") }, "\(lines)")
        #expect(lines.contains("^ hotter   ETA 2 min"))
        #expect(lines.last == "* hotcoldd - hunt - n/p focus - q quits")
    }

    @Test("one ETA format: minutes, then hours and minutes")
    func etaFormat() {
        #expect(TimeText.eta(7 * 60) == "7 min")
        #expect(TimeText.eta(72 * 60) == "1 h 12 min")
        #expect(TimeText.eta(5868) == "1 h 38 min")
        #expect(TimeText.eta(2 * 3600) == "2 h")
    }
}

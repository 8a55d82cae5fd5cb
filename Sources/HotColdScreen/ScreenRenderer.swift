import HotColdCore

/// Draws a `ScreenModel` as lines for a terminal of a given size: pure, so every layout is a
/// unit test.
///
/// The nearest target is shown large at the top (name, distance and arrow, a tier gauge, trend
/// and ETA), the other targets below as many as fit, GPS state in a banner on top and the link
/// to the daemon at the foot. When the terminal is too short, lines go in a fixed order (spacing
/// first, then the other targets, the footer, the banner, and the focus's own lines from the
/// bottom up) so even 20×6 keeps name, distance, tier and trend. No line is wider than `width`
/// cells, counting wide and zero-width characters as a terminal does.
///
/// ```swift
/// let lines = ScreenRenderer.render(model, width: 60, height: 20, style: .colour)
/// ```
public enum ScreenRenderer {
    /// The lines to print, top to bottom (at most `height`), with the escapes `style` allows.
    public static func render(_ model: ScreenModel, width: Int, height: Int, style: ScreenStyle) -> [String] {
        lines(model, width: width, height: height, style: style).map { $0.text(style) }
    }

    /// The same lines before they become bytes.
    public static func lines(_ model: ScreenModel, width: Int, height: Int, style: ScreenStyle) -> [StyledLine] {
        guard width > 0, height > 0 else { return [] }
        var slots: [Slot] = [Slot(.banner, banner(model, width: width, style: style)), Slot(.spacing, StyledLine())]
        slots += focusSlots(model, width: width, style: style)
        let others = model.link == .connected ? model.others.prefix(height) : []
        if !others.isEmpty { slots.append(Slot(.spacing, rule(width: width, style: style))) }
        for t in others { slots.append(Slot(.other, row(t, model: model, width: width))) }
        slots.append(Slot(.footer, footer(model)))
        return fit(slots, height: height).map { $0.line.fitted(to: width) }
    }

    // MARK: - Priorities

    /// What a line is, in the order lines give way on a short terminal (last goes first).
    enum Part: Int, Comparable {
        case name, distance, tier, trend, banner, footer, other, spacing
        static func < (a: Part, b: Part) -> Bool { a.rawValue < b.rawValue }
    }

    struct Slot {
        var part: Part
        var line: StyledLine
        init(_ part: Part, _ line: StyledLine) {
            self.part = part
            self.line = line
        }
    }

    /// Drops the least needed lines (the lowest of them first) until `height` remain.
    static func fit(_ slots: [Slot], height: Int) -> [Slot] {
        var kept = slots
        while kept.count > height, let worst = kept.map(\.part).max(),
              let i = kept.lastIndex(where: { $0.part == worst }) {
            kept.remove(at: i)
        }
        return kept
    }

    // MARK: - Sections

    /// GPS state in reverse video across the top: fix mode, satellites, accuracy, age; parts that
    /// do not fit are left off from the right.
    static func banner(_ m: ScreenModel, width: Int, style: ScreenStyle) -> StyledLine {
        var parts = [gpsWord(m)]
        if m.link == .connected {
            if let n = m.gps.satellites { parts.append("\(n) sat") }
            if let a = m.gps.accuracyM { parts.append("±" + DistanceFormat.text(a).filter { $0 != " " }) }
            if let age = m.fixAge { parts.append("\(TimeText.age(age)) ago") }
        }
        var text = ""
        for p in parts {
            let next = text.isEmpty ? p : text + "  " + p
            if DisplayWidth.of(next) > width, !text.isEmpty { break }
            text = next
        }
        let pad = max(0, width - DisplayWidth.of(text))
        return StyledLine(style == .plain ? text : text + String(repeating: " ", count: pad), .banner)
    }

    static func gpsWord(_ m: ScreenModel) -> String {
        switch m.link {
        case .connecting, .gone: return "GPS ?"
        case .connected: break
        }
        if let link = m.gps.gpsdLink, link != "connected" { return "gpsd \(link)" }
        switch m.gps.state {
        case "fix":
            switch m.gps.mode {
            case 3: return "3D fix"
            case 2: return "2D fix"
            default: return "fix"
            }
        case "nofix": return "no fix"
        case "stale": return "fix stale"
        case "lost": return "GPS lost"
        case "unknown": return "no fix yet"
        default: return m.gps.state
        }
    }

    /// The focus target's lines, or the message that stands in for them.
    static func focusSlots(_ m: ScreenModel, width: Int, style: ScreenStyle) -> [Slot] {
        switch m.link {
        case .connecting:
            return [Slot(.name, StyledLine("connecting to hotcoldd…", .strong))]
        case .gone(let reason):
            return [Slot(.name, StyledLine("daemon gone, reconnecting…", .strong)), Slot(.trend, StyledLine(reason, .faint))]
        case .connected:
            break
        }
        guard let t = m.focus else {
            return [Slot(.name, StyledLine("no targets tracked", .strong)),
                    Slot(.trend, StyledLine("try: hotcold hunt ID, hotcold roam 20km", .faint))]
        }
        let tierInk = Ink.tier(t.tier, hottest: m.hottestTier)
        var distance = StyledLine(DistanceFormat.text(t.distanceM), .strong)
        let pointer = CompassArrow(bearing: t.bearingDeg, course: m.course)
        distance.add("  \(pointer.arrow) \(pointer.label)")
        if t.arrived { distance.add("  ARRIVED", .hue(Ink.hues.count - 1)) }

        var tier = StyledLine()
        let gaugeWidth = min(24, width - DisplayWidth.of(t.tierName) - 1)
        if gaugeWidth >= 3 {
            tier = gauge(tier: t.tier, hottest: m.hottestTier, width: gaugeWidth, style: style)
            tier.add(" ")
        }
        tier.add(t.tierName, tierInk)

        var trend = StyledLine(trendText(t.trend), trendInk(t.trend))
        if let eta = t.etaS { trend.add("   ETA \(TimeText.eta(eta))") }
        return [Slot(.name, StyledLine(t.name, .strong)), Slot(.distance, distance), Slot(.tier, tier), Slot(.trend, trend)]
    }

    /// A bar filled in proportion to the tier, in the tier's colour: one glance tells cold
    /// (short, blue) from burning (full, red). ASCII in plain style.
    public static func gauge(tier: Int, hottest: Int, width: Int, style: ScreenStyle) -> StyledLine {
        let top = max(1, hottest)
        let t = max(0, min(top, tier))
        let n = max(1, width)
        let filled = max(1, min(n, ((t + 1) * n + (top + 1) / 2) / (top + 1)))
        var line = StyledLine(String(repeating: style == .plain ? "#" : "█", count: filled), Ink.tier(t, hottest: top))
        line.add(String(repeating: style == .plain ? "." : "░", count: n - filled), .faint)
        return line
    }

    static func trendText(_ t: Trend) -> String {
        switch t {
        case .hotter: "▲ hotter"
        case .colder: "▼ colder"
        case .steady: "= steady"
        case .unknown: "? unknown"
        }
    }

    static func trendInk(_ t: Trend) -> Ink {
        switch t {
        case .hotter: .hue(6)
        case .colder: .hue(0)
        case .steady: .normal
        case .unknown: .faint
        }
    }

    static func rule(width: Int, style: ScreenStyle) -> StyledLine {
        StyledLine(String(repeating: style == .plain ? "-" : "─", count: max(0, width)), .faint)
    }

    /// One other target: the name takes what the figures leave; on a narrow screen the tier
    /// name, then the arrow, give way first.
    static func row(_ t: ScreenModel.TargetView, model m: ScreenModel, width: Int) -> StyledLine {
        let pointer = CompassArrow(bearing: t.bearingDeg, course: m.course)
        let symbol = String(trendText(t.trend).prefix(1))
        let candidates: [[StyledLine.Span]] = [
            [.init(text: " \(DistanceFormat.text(t.distanceM)) \(pointer.arrow) ", ink: .normal),
             .init(text: t.tierName, ink: Ink.tier(t.tier, hottest: m.hottestTier)),
             .init(text: " \(symbol)", ink: trendInk(t.trend))],
            [.init(text: " \(DistanceFormat.text(t.distanceM)) \(pointer.arrow) ", ink: .normal),
             .init(text: symbol, ink: trendInk(t.trend))],
            [.init(text: " \(DistanceFormat.text(t.distanceM))", ink: .normal)],
        ]
        var right = candidates[candidates.count - 1]
        for c in candidates where width - c.reduce(0, { $0 + DisplayWidth.of($1.text) }) >= 6 {
            right = c
            break
        }
        let rightWidth = right.reduce(0) { $0 + DisplayWidth.of($1.text) }
        let nameWidth = max(1, width - rightWidth)
        let name = DisplayWidth.fit(t.name, width: nameWidth)
        var line = StyledLine(name + String(repeating: " ", count: max(0, nameWidth - DisplayWidth.of(name))))
        line.spans += right
        return line
    }

    static func footer(_ m: ScreenModel) -> StyledLine {
        switch m.link {
        case .connecting: return StyledLine("connecting…  q quits", .faint)
        case .gone: return StyledLine("daemon gone, reconnecting…  q quits", .strong)
        case .connected:
            var s = "● hotcoldd"
            if let mode = m.trackingMode { s += " · \(mode)" }
            return StyledLine(s + " · q quits", .faint)
        }
    }
}

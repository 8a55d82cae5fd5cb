import HotColdCore

/// Draws a `ScreenModel` as lines for a terminal of a given size: pure, so every layout is a
/// unit test.
///
/// The nearest target is shown large at the top (name, the distance in three-row digits in the
/// tier's colour, distance and arrow, a tier gauge, trend and ETA), the other targets below as
/// many as fit, GPS state in a banner on top and the link to the daemon at the foot. When the
/// terminal is too short, lines go in a fixed order (spacing first, then the other targets, the
/// big digits, the footer, the banner, and the focus's own lines from the bottom up) so even
/// 20×6 keeps name, distance, tier and trend. No line is wider than `width`
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
        slots += focusSlots(model, width: width, height: height, style: style)
        let others = model.link == .connected ? Array(model.others.prefix(height)) : []
        if !others.isEmpty { slots.append(Slot(.spacing, rule(width: width, style: style))) }
        let columns = Columns(others, model: model, width: width)
        for t in others {
            var line = row(t, model: model, width: width, columns: columns)
            if model.isStale { line.spans = line.spans.map { .init(text: $0.text, ink: .faint) } }
            slots.append(Slot(.other, line))
        }
        slots.append(Slot(.footer, footer(model)))
        return fit(slots, height: height).flatMap(\.lines).map { $0.fitted(to: width) }
    }

    // MARK: - Priorities

    /// What a line is, in the order lines give way on a short terminal (last goes first).
    enum Part: Int, Comparable {
        case name, distance, tier, trend, banner, footer, large, other, spacing
        static func < (a: Part, b: Part) -> Bool { a.rawValue < b.rawValue }
    }

    /// One line, or lines that stay or go together (the big digits).
    struct Slot {
        var part: Part
        var lines: [StyledLine]
        init(_ part: Part, _ line: StyledLine) {
            self.part = part
            lines = [line]
        }
        init(_ part: Part, lines: [StyledLine]) {
            self.part = part
            self.lines = lines
        }
    }

    /// Keeps the most needed slots that fit in `height` lines, in screen order: slots are taken
    /// by priority (top to bottom within a part), each if it still fits, so a block too tall
    /// for what is left (the big digits) gives its room to single lines after it.
    static func fit(_ slots: [Slot], height: Int) -> [Slot] {
        var keep = Array(repeating: false, count: slots.count)
        var used = 0
        for i in slots.indices.sorted(by: { (slots[$0].part, $0) < (slots[$1].part, $1) })
        where used + slots[i].lines.count <= height {
            keep[i] = true
            used += slots[i].lines.count
        }
        return slots.indices.filter { keep[$0] }.map { slots[$0] }
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
    static func focusSlots(_ m: ScreenModel, width: Int, height: Int, style: ScreenStyle) -> [Slot] {
        switch m.link {
        case .connecting:
            return [Slot(.name, StyledLine("connecting to hotcoldd…", .strong))]
        case .gone(let reason):
            return [Slot(.name, StyledLine("daemon gone, reconnecting…", .strong)), Slot(.trend, StyledLine(reason, .faint))]
        case .connected:
            break
        }
        guard let t = m.focus else {
            // With no position a roam tracks nothing: say the cause, not its effect.
            if m.gps.state != "fix" || m.gps.gpsdLink.map({ $0 != "connected" }) == true {
                return [Slot(.name, StyledLine("no fix: \(gpsWord(m))", .strong)),
                        Slot(.trend, StyledLine("targets are measured once the GPS has a position", .faint))]
            }
            return [Slot(.name, StyledLine("no targets tracked", .strong)),
                    Slot(.trend, StyledLine("try: hotcold hunt ID, hotcold roam 20km", .faint))]
        }
        // Old figures (no fix now, or the last one too old) are drawn dim and say how old.
        let stale = m.isStale
        let tierInk = stale ? Ink.faint : Ink.tier(t.tier, hottest: m.hottestTier)
        var distance = StyledLine(DistanceFormat.text(t.distanceM), stale ? .faint : .strong)
        let pointer = CompassArrow(bearing: t.bearingDeg, course: m.course)
        distance.add("  \(pointer.arrow) \(pointer.label)", stale ? .faint : .normal)
        if t.arrived { distance.add("  ARRIVED", stale ? .faint : .hue(Ink.hues.count - 1)) }
        if stale { distance.add("  OLD: " + (m.fixAge.map { "fix \(TimeText.age($0)) ago" } ?? "no fix"), .strong) }

        var tier = StyledLine()
        let gaugeWidth = min(24, width - DisplayWidth.of(t.tierName) - 1)
        if gaugeWidth >= 3 {
            tier = gauge(tier: t.tier, hottest: m.hottestTier, width: gaugeWidth, style: style)
            tier.add(" ")
        }
        tier.add(t.tierName, tierInk)

        var trend = StyledLine(trendText(t.trend), stale ? .faint : trendInk(t.trend))
        if let eta = t.etaS, !stale { trend.add("   ETA \(TimeText.eta(eta))") }
        let octant = CompassArrow.octant(t.bearingDeg - (m.course ?? 0))
        let big = bigDistance(t.distanceM, arrow: octant, ink: tierInk, width: width, height: height, style: style)
        return [Slot(.name, StyledLine(t.name, .strong))]
            + [Slot(.large, lines: big)].filter { !$0.lines.isEmpty }
            + [Slot(.distance, distance), Slot(.tier, tier), Slot(.trend, trend)]
    }

    /// The distance in `BigText` with the direction as a `BigArrow` beside it, when they fit the
    /// width and the terminal draws blocks (not in plain style, where a display may show bytes as
    /// sent). On a large terminal (room for twice the size and still the other lines) both are
    /// drawn at twice the size, every cell doubled across and down.
    static func bigDistance(_ metres: Double, arrow octant: Int, ink: Ink, width: Int, height: Int,
                            style: ScreenStyle) -> [StyledLine] {
        let text = DistanceFormat.text(metres)
        guard style != .plain, let w = BigText.width(text), w <= width, let digits = BigText.rows(text) else { return [] }
        let gap = "   "
        let withArrow = w + gap.count + BigArrow.width <= width
        var rows = withArrow ? zip(digits, BigArrow.rows(octant: octant)).map { $0 + gap + $1 } : digits
        let rowWidth = withArrow ? w + gap.count + BigArrow.width : w
        if rowWidth * 2 <= width, height >= 24 {
            rows = rows.flatMap { r in
                let wide = String(r.flatMap { [$0, $0] })
                return [wide, wide]
            }
        }
        return rows.map { StyledLine($0, ink) }
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

    /// The widths the other targets' rows share, so their figures line up in columns next to
    /// the names (not at the far edge of a wide terminal).
    struct Columns {
        var name: Int
        var distance: Int
        var tier: Int
        init(_ rows: [ScreenModel.TargetView], model: ScreenModel, width: Int) {
            name = rows.map { DisplayWidth.of($0.name) }.max() ?? 0
            distance = rows.map { DisplayWidth.of(DistanceFormat.text($0.distanceM)) }.max() ?? 0
            tier = rows.map { DisplayWidth.of($0.tierName) }.max() ?? 0
        }
    }

    /// One other target: name, then distance (right-aligned), arrow, tier and trend in columns
    /// shared by every row; the name takes what the figures leave; on a narrow screen the tier
    /// name, then the arrow, give way first.
    static func row(_ t: ScreenModel.TargetView, model m: ScreenModel, width: Int, columns: Columns) -> StyledLine {
        let pointer = CompassArrow(bearing: t.bearingDeg, course: m.course)
        let symbol = String(trendText(t.trend).prefix(1))
        let d = DistanceFormat.text(t.distanceM)
        let dist = String(repeating: " ", count: max(0, columns.distance - DisplayWidth.of(d))) + d
        let tierName = t.tierName + String(repeating: " ", count: max(0, columns.tier - DisplayWidth.of(t.tierName)))
        let candidates: [[StyledLine.Span]] = [
            [.init(text: "  \(dist) \(pointer.arrow) ", ink: .normal),
             .init(text: tierName, ink: Ink.tier(t.tier, hottest: m.hottestTier)),
             .init(text: " \(symbol)", ink: trendInk(t.trend))],
            [.init(text: "  \(dist) \(pointer.arrow) ", ink: .normal),
             .init(text: symbol, ink: trendInk(t.trend))],
            [.init(text: " \(dist)", ink: .normal)],
        ]
        var right = candidates[candidates.count - 1]
        for c in candidates where width - c.reduce(0, { $0 + DisplayWidth.of($1.text) }) >= 6 {
            right = c
            break
        }
        let rightWidth = right.reduce(0) { $0 + DisplayWidth.of($1.text) }
        let nameWidth = max(1, min(columns.name, width - rightWidth))
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
            if m.targets.count > 1 { s += m.chosenFocusID == nil ? " · n/p focus" : " · n/p focus, a auto" }
            return StyledLine(s + " · q quits", .faint)
        }
    }
}

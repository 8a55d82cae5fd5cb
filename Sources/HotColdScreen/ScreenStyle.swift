/// How much a terminal can show: the renderer's one switch for escapes.
public enum ScreenStyle: Sendable, Equatable {
    /// Colours and attributes (a normal terminal).
    case colour
    /// Bold and reverse video but no colour: `NO_COLOR` (https://no-color.org).
    case monochrome
    /// No escape sequences and ASCII gauges: `TERM=dumb`, or a display that shows bytes as sent.
    case plain
}

/// What a span of text looks like; mapped to SGR escape parameters per `ScreenStyle`.
public enum Ink: Sendable, Equatable {
    case normal
    case strong
    case faint
    case banner
    /// A colour on the cold-to-hot scale, 0 (coldest, blue) to `Ink.hues.count - 1` (burning red).
    case hue(Int)

    /// Blue, bright blue, cyan, bright cyan, green, yellow, red, bold bright red: the 16-colour
    /// palette every colour terminal has, ordered cold to hot.
    public static let hues = ["34", "94", "36", "96", "32", "33", "31", "1;91"]

    /// SGR parameters for this ink, or nil for none.
    public func sgr(_ style: ScreenStyle) -> String? {
        switch (self, style) {
        case (_, .plain), (.normal, _): return nil
        case (.strong, _): return "1"
        case (.faint, _): return "2"
        case (.banner, _): return "7"
        case (.hue, .monochrome): return nil
        case (.hue(let i), .colour): return Ink.hues[max(0, min(Ink.hues.count - 1, i))]
        }
    }

    /// The hue for `tier` on a ladder whose hottest level is `hottest` (the coldest is 0).
    public static func tier(_ tier: Int, hottest: Int) -> Ink {
        let top = max(1, hottest)
        let t = max(0, min(top, tier))
        return .hue((t * (hues.count - 1) + top / 2) / top)
    }
}

/// One screen line as spans of text, each in its own ink, measured in terminal cells.
///
/// Widths are counted on the text alone, so truncation never cuts an escape sequence and a
/// coloured line is exactly as wide as its plain form.
public struct StyledLine: Sendable, Equatable {
    public struct Span: Sendable, Equatable {
        public var text: String
        public var ink: Ink
    }

    public var spans: [Span] = []

    public init() {}

    public init(_ text: String, _ ink: Ink = .normal) { add(text, ink) }

    public mutating func add(_ text: String, _ ink: Ink = .normal) {
        if !text.isEmpty { spans.append(Span(text: text, ink: ink)) }
    }

    public var width: Int { spans.reduce(0) { $0 + DisplayWidth.of($1.text) } }
    public var plainText: String { spans.map(\.text).joined() }

    /// The line cut to `width` cells ("…" marks the cut).
    public func fitted(to width: Int) -> StyledLine {
        guard self.width > width else { return self }
        guard width > 0 else { return StyledLine() }
        var out = StyledLine()
        var left = width - 1
        for s in spans {
            let w = DisplayWidth.of(s.text)
            if w <= left {
                out.spans.append(s)
                left -= w
                continue
            }
            let cut = DisplayWidth.fit(s.text, width: left + 1)
            out.add(String(cut.dropLast()), s.ink)
            break
        }
        out.add("…")
        return out
    }

    /// The bytes to print: each inked span wrapped in SGR on and reset; in plain style
    /// (`TERM=dumb`), ASCII only.
    public func text(_ style: ScreenStyle) -> String {
        if style == .plain { return ASCIIText.fold(plainText) }
        var out = ""
        for s in spans {
            if let sgr = s.ink.sgr(style) {
                out += "\u{1B}[\(sgr)m\(s.text)\u{1B}[0m"
            } else {
                out += s.text
            }
        }
        return out
    }
}

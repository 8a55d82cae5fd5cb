import HotColdUnix

// What `hotcold` prints is mostly other people's words: place names from a catalogue or a
// geocache listing, notes and titles typed on a phone, friends' names and devices from the
// network, the daemon's messages quoting them. Any of them may hold an escape sequence that
// would move the cursor, recolour or clear the terminal, set its title, or hide text behind a
// bidirectional override. So every line goes out through one of the functions here, never
// straight to the terminal:
//
// - `print` (this module's, which every plain `print(…)` in the module calls instead of the
//   standard library's): text, with every control character written as a visible escape
//   (`\e`, `\u{9B}`); the program's own line breaks and tab separators are kept.
// - `printJSON` and `Shown.json`: `--json` output, which must stay JSON: the characters a
//   terminal would act on are written as JSON's own `\u` escapes, so a parser reads back the
//   same string and a terminal shows only text.
// - `OutputBuffer.painted`: a line in the program's own colours, whose every value from
//   outside was made safe (`TerminalText.safe`) as it was put in (`EventText`).

/// The standard library's `print`, with what it prints made safe for a terminal (see above).
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    let text = items.map { "\($0)" }.joined(separator: separator)
    Swift.print(Shown.text(text), terminator: terminator)
}

/// A JSON document or line, printed as JSON that is safe on a terminal.
func printJSON(_ json: String) {
    Swift.print(Shown.json(json))
}

enum Shown {
    /// `text` with control characters escaped, keeping its line breaks and tabs.
    static func text(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value >= 0x7F }) else { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.split(separator: "\t", omittingEmptySubsequences: false).map { TerminalText.safe(String($0)) }.joined(separator: "\t")
        }.joined(separator: "\n")
    }

    /// A JSON text with every character a terminal would act on (DEL, C1, the bidirectional
    /// controls: JSON lets them stand raw in a string) written as `\uXXXX`. Raw C0 characters
    /// cannot stand in a JSON string, so outside the layout's own line breaks, tabs and
    /// returns there are none to find; any other is escaped the same way.
    static func json(_ json: String) -> String {
        guard json.unicodeScalars.contains(where: mayBeActedOn) else { return json }
        var out = ""
        out.unicodeScalars.reserveCapacity(json.unicodeScalars.count + 16)
        for s in json.unicodeScalars {
            if mayBeActedOn(s), isActedOn(s) {
                let hex = String(s.value, radix: 16, uppercase: true)
                out += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            } else {
                out.unicodeScalars.append(s)
            }
        }
        return out
    }

    /// A cheap first look: C0 but the layout's own, DEL and C1, and the block of general
    /// punctuation and Arabic's mark where the bidirectional controls are.
    static func mayBeActedOn(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x0A, 0x09, 0x0D: false
        case 0x00...0x1F, 0x7F...0x9F, 0x200E...0x2069, 0x061C: true
        default: false
        }
    }

    /// Whether a terminal would act on `s` rather than show it (as `TerminalText` decides).
    static func isActedOn(_ s: Unicode.Scalar) -> Bool {
        let one = String(Character(s))
        return TerminalText.safe(one) != one
    }
}

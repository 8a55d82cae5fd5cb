/// Text three terminal rows tall, for the distance on a small in-car or handheld display that
/// is read at a glance from arm's length.
///
/// Each glyph is a 5-pixel-high bitmap; two pixel rows share one cell row through the half
/// blocks ▀ ▄ █, so a glyph is 3 rows tall and 3 cells wide (5 for `m`), with one blank column
/// between glyphs. Only what `DistanceFormat` writes is drawn: digits, `.`, space, `k` and `m`;
/// any other character and there is no big form.
///
/// ```swift
/// BigText.rows("850 m")   // ["█▀▀ █▀█ █▀█     ", …] three rows of equal width
/// ```
public enum BigText {
    public static let height = 3

    /// The three rows, all the same width in cells, or nil when `text` has a character with no glyph.
    public static func rows(_ text: String) -> [String]? {
        var rows = Array(repeating: "", count: height)
        for (n, ch) in text.enumerated() {
            guard let bitmap = glyphs[ch] else { return nil }
            for r in 0..<height {
                if n > 0 { rows[r] += " " }
                rows[r] += cells(bitmap, row: r)
            }
        }
        return rows
    }

    /// Width in cells of `text` drawn big (nil when it cannot be).
    public static func width(_ text: String) -> Int? {
        var total = 0
        for (n, ch) in text.enumerated() {
            guard let bitmap = glyphs[ch] else { return nil }
            total += (bitmap.first?.count ?? 0) + (n > 0 ? 1 : 0)
        }
        return total
    }

    /// Cell row `r` of a glyph: pixel rows 2r (upper half) and 2r+1 (lower half).
    static func cells(_ bitmap: [String], row r: Int) -> String {
        let top = Array(bitmap[2 * r])
        let bottom = 2 * r + 1 < bitmap.count ? Array(bitmap[2 * r + 1]) : Array(repeating: Character("."), count: top.count)
        var out = ""
        for (t, b) in zip(top, bottom) {
            switch (t == "#", b == "#") {
            case (true, true): out += "█"
            case (true, false): out += "▀"
            case (false, true): out += "▄"
            case (false, false): out += " "
            }
        }
        return out
    }

    /// 5-row bitmaps, `#` lit; drawn for this project.
    static let glyphs: [Character: [String]] = [
        "0": ["###", "#.#", "#.#", "#.#", "###"],
        "1": [".#.", "##.", ".#.", ".#.", "###"],
        "2": ["###", "..#", "###", "#..", "###"],
        "3": ["###", "..#", ".##", "..#", "###"],
        "4": ["#.#", "#.#", "###", "..#", "..#"],
        "5": ["###", "#..", "###", "..#", "###"],
        "6": ["###", "#..", "###", "#.#", "###"],
        "7": ["###", "..#", ".#.", ".#.", ".#."],
        "8": ["###", "#.#", "###", "#.#", "###"],
        "9": ["###", "#.#", "###", "..#", "###"],
        ".": [".", ".", ".", ".", "#"],
        " ": [".", ".", ".", ".", "."],
        "k": ["#..", "#.#", "##.", "#.#", "#.#"],
        "m": [".....", "####.", "#.#.#", "#.#.#", "#.#.#"],
    ]
}

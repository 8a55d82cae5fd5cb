/// The caps every request is held to while it is decoded (see PROTOCOL.md, "Limits").
///
/// They bound what one line can make the daemon hold or do; the socket's own 64 KiB line
/// limit bounds the rest.
public enum Limits {
    /// Deepest nesting of objects and arrays in one request line.
    static let nestingDepth = 4
    /// Targets in one `hunt`.
    static let huntTargets = 1_000
    /// One `hunt` target spec ("LAT,LON,NAME" or an id).
    static let targetSpecLength = 320
    /// Ids of places, targets and uploads.
    public static let idLength = 100
    /// Names of places, locations, submissions, files; titles (counted by ``length(of:)``).
    public static let nameLength = 200
    /// A note's text (characters).
    static let noteLength = 500
    /// Free text: an observation's description, a submission's address, a search text.
    static let textLength = 2_000
    /// `watch` target filters.
    static let watchTargets = 1_000
    /// Largest radius for `roam`, in metres (half the Earth's circumference is ~20,004 km).
    public static let maxRadius = 20_000_000.0
    /// Rows in one `search` or `near` reply.
    public static let resultRows = 1_000
    /// An import file sent with `upload`.
    public static let importBytes = 64 << 20
    /// A photo sent with `upload` for `submit`.
    public static let photoBytes = 10 << 20
    /// Targets listed in `STATUS` (the nearest; `targets_more` counts the rest, `targets` pages
    /// through them all): a STATUS line stays far below a client's output queue however many
    /// places are tracked.
    public static let statusTargets = 50
    /// Targets in one `targets` reply (each ~250 bytes: a page stays under 256 KiB).
    static let targetsPage = 1_000
    /// Skipped rows and warnings listed in an `IMPORT` reply; `skipped_total`/`warnings_total`
    /// give the full counts when more were found.
    public static let reportIssues = 100
    /// A `submit`'s idempotency key, in characters (a phone's 128 random bits fit in 22).
    public static let submitKeyLength = 16...64
    /// Decoded bytes in one `chunk` (its base64 text is 4/3 of that; the line stays < 64 KiB).
    public static let chunkBytes = 32 << 10
    /// Largest offset or sequence number a client may name: exact in a JSON number (2^53).
    public static let maxInteger = 9_007_199_254_740_992

    /// How long a text is, counted the one way every program counts it: in Unicode code points,
    /// as JSON Schema's `maxLength` (and so the schema files) counts. Every text cap here is in
    /// these units, so the daemon, hotcold-web and a client checking against the schema agree
    /// on what fits; a code point is at most 4 bytes, so a cap also bounds the bytes. A
    /// character drawn from several code points (an emoji family, a flag, a letter with a
    /// combining accent) counts as each of them.
    public static func length(of text: String) -> Int { text.unicodeScalars.count }

    /// Whether `text` is within `max` by ``length(of:)``.
    public static func fits(_ text: String, max: Int) -> Bool {
        text.utf8.count <= max || length(of: text) <= max
    }

    /// The longest start of `text` within `max` by ``length(of:)``, cut between characters (a
    /// flag or an emoji family is kept whole or left out): for a program shortening text it
    /// sends, so the daemon never refuses what it shortened.
    public static func prefix(_ text: String, max: Int) -> String {
        guard !fits(text, max: max) else { return text }
        var n = 0
        var end = text.startIndex
        for c in text {
            n += c.unicodeScalars.count
            if n > max { break }
            end = text.index(after: end)
        }
        return String(text[..<end])
    }
}

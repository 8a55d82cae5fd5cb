/// What a `TrackReader` did with its input, for the "skipped 12 lines (9 bad checksum, 3 truncated)"
/// message on stderr.
///
/// A "record" is one NMEA sentence, one JSON line or one GPX point. NMEA lines can hold several
/// sentences (a receiver that drops a line ending glues two together), so skips there count sentences.
public struct ReplayStats: Sendable, Equatable {
    /// Why a record was dropped.
    public enum SkipReason: String, Sendable, CaseIterable, Comparable {
        case badChecksum = "bad checksum"
        /// Cut short: unterminated, too few fields, or the file ends mid-record.
        case truncated
        /// Not valid for its kind: garbled fields, invalid JSON, non-ASCII bytes inside a sentence.
        case unparsable
        /// A fix-bearing record without a time (gpsd TPV, GPX point).
        case noTime = "no time"
        /// Longer than `LineReader.maximumLineLength`.
        case tooLong = "too long"
        /// GPX only: the XML broke midway and reading stopped there (see `stoppedEarly`).
        case malformedXML = "malformed XML"

        public static func < (a: SkipReason, b: SkipReason) -> Bool {
            allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
        }
    }

    /// Lines of input read (GPX: lines of XML).
    public internal(set) var lines = 0
    public internal(set) var fixes = 0
    public internal(set) var skipped: [SkipReason: Int] = [:]
    /// Records read correctly but not used: other NMEA sentences, other gpsd classes.
    public internal(set) var ignored = 0
    /// `#` comment lines and blank lines.
    public internal(set) var comments = 0
    /// NMEA sentences accepted without a checksum (the standard makes it optional on some links).
    public internal(set) var missingChecksum = 0
    /// Set when reading stopped before the end of the file, with the reason and place.
    public internal(set) var stoppedEarly: String?

    /// What one skipped record is called in `skipSummary`: "line", or "point" for GPX.
    public internal(set) var recordName = "line"

    public init() {}

    public var skippedTotal: Int { skipped.values.reduce(0, +) }

    mutating func skip(_ reason: SkipReason) { skipped[reason, default: 0] += 1 }

    /// "skipped 12 lines (9 bad checksum, 3 truncated)", or nil when nothing was skipped.
    public var skipSummary: String? {
        let total = skippedTotal
        guard total > 0 else { return nil }
        let parts = skipped.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key.rawValue)" }
        var text = "skipped \(total) \(recordName)\(total == 1 ? "" : "s") (\(parts.joined(separator: ", ")))"
        if let stoppedEarly { text += "; stopped early: \(stoppedEarly)" }
        return text
    }
}

/// The head of a line the daemon published: `{"class":"NAME","seq":N,…`, read without parsing
/// the rest of the object.
///
/// The daemon writes these two fields first and always in this form (see `WireCoding.line` for a `SequencedMessage`),
/// so reading the log back to replay events since a number needs no JSON parser for the lines
/// it skips. Anything else (an old line without `seq`, a fragment left by a failed write) is
/// not a header, and the caller skips it.
///
/// ```swift
/// let h = PublishedLineHeader(utf8: Array(#"{"class":"GPS","seq":7,"time":"…"}"#.utf8))
/// h?.className   // "GPS"
/// h?.seq         // 7
/// ```
public struct PublishedLineHeader: Sendable, Equatable {
    public var className: String
    public var seq: Int

    /// Longest class name accepted (the known ones are at most 17 bytes, FOLLOWING_CHANGED).
    static let maxClassBytes = 32
    /// At most 18 digits, so the value never overflows a 64-bit Int.
    static let maxSeqDigits = 18

    public init(className: String, seq: Int) {
        self.className = className
        self.seq = seq
    }

    public init?<C: Collection>(utf8 line: C) where C.Element == UInt8 {
        var i = line.startIndex
        func expect(_ text: StaticString) -> Bool {
            for byte in UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount) {
                guard i != line.endIndex, line[i] == byte else { return false }
                i = line.index(after: i)
            }
            return true
        }
        guard expect(#"{"class":""#) else { return nil }
        var name: [UInt8] = []
        while i != line.endIndex, line[i] != UInt8(ascii: "\"") {
            let b = line[i]
            // Class names are upper-case ASCII letters, digits and `_` (LIKE_RECEIVED,
            // FOLLOWING_CHANGED), starting with a letter; anything else is not our header.
            let letter = b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z")
            let more = b == UInt8(ascii: "_") || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9"))
            guard letter || (more && !name.isEmpty), name.count < Self.maxClassBytes else { return nil }
            name.append(b)
            i = line.index(after: i)
        }
        guard !name.isEmpty, expect(#"","seq":"#) else { return nil }
        var value = 0
        var digits = 0
        while i != line.endIndex, line[i] >= UInt8(ascii: "0"), line[i] <= UInt8(ascii: "9") {
            guard digits < Self.maxSeqDigits else { return nil }
            value = value * 10 + Int(line[i] - UInt8(ascii: "0"))
            digits += 1
            i = line.index(after: i)
        }
        guard digits > 0, i != line.endIndex, line[i] == UInt8(ascii: ",") || line[i] == UInt8(ascii: "}") else { return nil }
        className = String(decoding: name, as: UTF8.self)
        seq = value
    }
}

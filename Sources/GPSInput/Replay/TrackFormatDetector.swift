/// Tells the track formats apart by content (extensions lie, and gpsd logs are all `.log`).
///
/// Looks at the first 64 KiB, skipping `#` comment lines as gpsd's logs have them:
/// - NMEA when a line starts a sentence (`$` + address + `,`) with a correct checksum, or
///   several such lines in text that is not binary (checksums are optional in NMEA).
/// - gpsd JSON when the first content is `{` and a `"TPV"` appears (searched to the end of the
///   file if need be, so a JSON file without any TPV is refused up front).
/// - GPX when the first content is `<` with a `<gpx` root and a track or route point.
/// - Otherwise an error that says what the file seems to be: receiver binary protocols (SiRF,
///   u-blox UBX) get told to go through gpsd, other binary and text are simply refused.
enum TrackFormatDetector {
    static let sniffLength = 64 * 1024

    /// - Parameter laterContains: searches the rest of the file (after `prefix`) for a byte string.
    static func detect(prefix: UnsafeBufferPointer<UInt8>,
                       laterContains: ([UInt8]) throws -> Bool) rethrows -> Result<TrackFormat, TrackReadError.Reason> {
        guard !prefix.isEmpty else { return .failure(.empty) }
        var start = 0
        if prefix.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }

        var firstContent: UInt8?
        var firstContentIndex = 0
        var sentences = 0
        var checkedSentences = 0
        var contentBytes = 0
        var controlBytes = 0
        var lineStart = start
        while lineStart < prefix.count {
            var lineEnd = lineStart
            while lineEnd < prefix.count, prefix[lineEnd] != 0x0A { lineEnd += 1 }
            var i = lineStart
            while i < lineEnd, isSpace(prefix[i]) { i += 1 }
            if i < lineEnd, prefix[i] != 0x23 {
                if firstContent == nil {
                    firstContent = prefix[i]
                    firstContentIndex = i
                }
                contentBytes += lineEnd - i
                for j in i..<lineEnd where prefix[j] < 0x20 && !isSpace(prefix[j]) || prefix[j] == 0x7F {
                    controlBytes += 1
                }
                let line = UnsafeBufferPointer(rebasing: prefix[i..<lineEnd])
                if looksLikeSentence(line) {
                    sentences += 1
                    if hasGoodChecksum(line) { checkedSentences += 1 }
                }
            }
            lineStart = lineEnd + 1
        }
        guard let first = firstContent else { return .failure(.onlyComments) }
        // Random bytes are about 12 % C0 controls; text, even damaged NMEA, far fewer.
        let binary = controlBytes * 20 > contentBytes

        if checkedSentences > 0 || (sentences > 1 && !binary) { return .success(.nmea) }
        if first == 0x7B && !binary {
            let tpv = Array("\"TPV\"".utf8)
            if try contains(prefix, tpv) || laterContains(tpv) { return .success(.gpsdJSON) }
            return .failure(.jsonWithoutTPV)
        }
        if first == 0x3C && !binary {
            guard contains(prefix, Array("<gpx".utf8)) else { return .failure(.xmlNotGPX) }
            for tag in ["<trkpt", "<rtept", ":trkpt", ":rtept"] {
                let needle = Array(tag.utf8)
                if try contains(prefix, needle) || laterContains(needle) { return .success(.gpx) }
            }
            return .failure(.gpxWithoutPoints)
        }
        let content = UnsafeBufferPointer(rebasing: prefix[firstContentIndex...])
        if binary || content.contains(0) {
            // Receivers' binary protocols begin every message with a sync pair.
            if count(prefix, [0xA0, 0xA2]) >= 2 { return .failure(.receiverBinary(protocolName: "SiRF")) }
            if count(prefix, [0xB5, 0x62]) >= 2 { return .failure(.receiverBinary(protocolName: "u-blox UBX")) }
            for (magic, kind) in magicNumbers where content.starts(with: magic) {
                return .failure(.binary(kind: kind))
            }
            return .failure(.binary(kind: nil))
        }
        return .failure(.unrecognisedText)
    }

    private static let magicNumbers: [([UInt8], String)] = [
        ([0xFF, 0xD8, 0xFF], "JPEG image"),
        ([0x89, 0x50, 0x4E, 0x47], "PNG image"),
        ([0x1F, 0x8B], "gzip-compressed"),
        ([0x50, 0x4B, 0x03, 0x04], "zip archive"),
        ([0x53, 0x51, 0x4C, 0x69, 0x74, 0x65], "SQLite database"),
        ([0x7F, 0x45, 0x4C, 0x46], "ELF executable"),
    ]

    /// `$` + three or more address characters + `,`: a sentence start, checked or not.
    private static func looksLikeSentence(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        guard line.count > 5, line[0] == 0x24 else { return false }
        var i = 1
        while i < line.count, (line[i] >= 0x41 && line[i] <= 0x5A) || (line[i] >= 0x30 && line[i] <= 0x39) { i += 1 }
        return i >= 4 && i < line.count && line[i] == 0x2C
    }

    private static func hasGoodChecksum(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        var sum: UInt8 = 0
        var i = 1
        while i < line.count, line[i] != 0x2A {
            sum ^= line[i]
            i += 1
        }
        guard i + 2 < line.count, let hi = hexValue(line[i + 1]), let lo = hexValue(line[i + 2]) else { return false }
        return hi << 4 | lo == sum
    }

    private static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: c - 0x30
        case 0x41...0x46: c - 0x37
        case 0x61...0x66: c - 0x57
        default: nil
        }
    }

    static func contains(_ hay: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
        count(hay, needle, stopAt: 1) > 0
    }

    private static func count(_ hay: UnsafeBufferPointer<UInt8>, _ needle: [UInt8], stopAt limit: Int = .max) -> Int {
        guard hay.count >= needle.count else { return 0 }
        var found = 0
        var i = 0
        while i <= hay.count - needle.count {
            if hay[i] == needle[0] {
                var j = 1
                while j < needle.count, hay[i + j] == needle[j] { j += 1 }
                if j == needle.count {
                    found += 1
                    if found >= limit { return found }
                }
            }
            i += 1
        }
        return found
    }

    private static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0D || c == 0x0A }
}

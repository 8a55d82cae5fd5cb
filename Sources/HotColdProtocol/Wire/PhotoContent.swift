/// What a photo's first bytes say it is, checked against the type its sender declared.
///
/// A `content_type` is only a claim: a phone's page, `hotcold submit` or any socket client can
/// name `image/jpeg` for an executable or a web page, and the web API would be handed it as a
/// photo. Every image format taken here begins with a fixed signature, so the first
/// ``headLength`` bytes decide; nothing is decoded (a decompression bomb stays a few bytes of
/// header). The daemon checks at `submit` and hotcold-web at its photo route, both with this
/// one function.
///
/// ```swift
/// PhotoContent.refusal(head: bytes.prefix(PhotoContent.headLength), declared: "image/webp")
/// // "the photo is declared image/webp, but its content is an ELF executable (it starts 7F 45 4C 46 …)"
/// ```
public enum PhotoContent {
    /// The types a photo may be declared as: what phones' and cameras' files are.
    public static let types = ["image/jpeg", "image/png", "image/webp", "image/gif", "image/heic", "image/heif", "image/avif"]

    /// Bytes enough to tell every accepted format (an ISO-BMFF `ftyp` box with its brands).
    public static let headLength = 64

    /// nil when `head` (the content's first bytes, up to ``headLength``) is what `declared`
    /// says; else a sentence naming the declared type and what the content looks like.
    public static func refusal(head: some Collection<UInt8>, declared: String) -> String? {
        let bytes = Array(head.prefix(headLength))
        guard types.contains(declared) else {
            return "a photo is one of \(types.joined(separator: ", ")), not \(declared)"
        }
        let found = kind(of: bytes)
        if found == declared { return nil }
        // HEIC is HEIF with HEVC inside; phones name either for either.
        let heif: Set<String> = ["image/heic", "image/heif"]
        if let found, heif.contains(found), heif.contains(declared) { return nil }
        return "the photo is declared \(declared), but its content is \(description(of: bytes))"
    }

    /// The accepted type `bytes` begin like, or nil.
    static func kind(of bytes: [UInt8]) -> String? {
        if starts(bytes, [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if starts(bytes, [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        if starts(bytes, Array("RIFF".utf8)), bytes.count >= 12, Array(bytes[8..<12]) == Array("WEBP".utf8) { return "image/webp" }
        if starts(bytes, Array("GIF87a".utf8)) || starts(bytes, Array("GIF89a".utf8)) { return "image/gif" }
        let brands = heifBrands(bytes)
        // AVIF first: an AVIF file lists mif1 too.
        if brands.contains("avif") || brands.contains("avis") { return "image/avif" }
        if brands.contains(where: { heicBrands.contains($0) }) { return "image/heic" }
        if brands.contains("mif1") || brands.contains("msf1") { return "image/heif" }
        return nil
    }

    /// HEVC-coded HEIF brands (what iPhones and recent Android phones write).
    static let heicBrands: Set<String> = ["heic", "heix", "hevc", "hevx", "heim", "heis"]

    /// The major and compatible brands of an ISO-BMFF `ftyp` box at the start of `bytes`
    /// (within what `bytes` holds); empty when there is none.
    static func heifBrands(_ bytes: [UInt8]) -> [String] {
        guard bytes.count >= 12, Array(bytes[4..<8]) == Array("ftyp".utf8) else { return [] }
        let size = bytes[0..<4].reduce(0) { $0 << 8 | Int($1) }
        guard size >= 16 else { return [] }
        let end = min(size, bytes.count)
        var brands = [brand(bytes, 8)]
        var at = 16    // after the major brand and its minor version
        while at + 4 <= end {
            brands.append(brand(bytes, at))
            at += 4
        }
        return brands
    }

    static func brand(_ bytes: [UInt8], _ at: Int) -> String {
        String(decoding: bytes[at..<at + 4], as: UTF8.self)
    }

    /// What the content looks like, for the refusal: a known kind of file by its signature,
    /// text, or the first bytes in hex.
    static func description(of bytes: [UInt8]) -> String {
        guard !bytes.isEmpty else { return "empty" }
        let start = "(it starts " + bytes.prefix(4).map { hex($0) }.joined(separator: " ") + " …)"
        if let k = kind(of: bytes) { return "a \(k.dropFirst("image/".count).uppercased()) image \(start)" }
        let signatures: [(prefix: [UInt8], name: String)] = [
            ([0x7F, 0x45, 0x4C, 0x46], "an ELF executable"),
            (Array("MZ".utf8), "a Windows executable"),
            (Array("#!".utf8), "a script"),
            (Array("%PDF".utf8), "a PDF document"),
            ([0x50, 0x4B, 0x03, 0x04], "a ZIP archive"),
            ([0x1F, 0x8B], "gzip-compressed data"),
            (Array("BZh".utf8), "bzip2-compressed data"),
            ([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00], "xz-compressed data"),
            (Array("SQLite format 3".utf8), "an SQLite database"),
            (Array("BM".utf8), "a BMP image (not taken: send JPEG, PNG or WebP)"),
            (Array("II*\u{0}".utf8), "a TIFF image (not taken: send JPEG, PNG or WebP)"),
            (Array("MM\u{0}*".utf8), "a TIFF image (not taken: send JPEG, PNG or WebP)"),
        ]
        for s in signatures where starts(bytes, s.prefix) { return "\(s.name) \(start)" }
        if starts(bytes, Array("RIFF".utf8)) { return "a RIFF file that is not WebP \(start)" }
        if !heifBrands(bytes).isEmpty { return "an ISO media file of brand \(brand(bytes, 8).debugDescription) \(start)" }
        // Text: markup first (a web page is the usual stand-in for a photo), else any text.
        let text = String(decoding: bytes, as: UTF8.self)
        let lead = text.drop(while: { $0.isWhitespace || $0 == "\u{FEFF}" }).lowercased()
        if lead.hasPrefix("<!doctype html") || lead.hasPrefix("<html") || lead.hasPrefix("<head") || lead.hasPrefix("<body")
            || lead.hasPrefix("<script") {
            return "HTML \(start)"
        }
        if lead.hasPrefix("<?xml") || lead.hasPrefix("<svg") { return "XML or SVG text, not a photo \(start)" }
        if lead.hasPrefix("{") || lead.hasPrefix("[") { return "JSON or other text \(start)" }
        let printable = bytes.allSatisfy { $0 == 9 || $0 == 10 || $0 == 13 || (0x20..<0x7F).contains($0) || $0 >= 0x80 }
        if printable && !text.contains("\u{FFFD}") { return "text \(start)" }
        return "not an image this box knows \(start)"
    }

    static func starts(_ bytes: [UInt8], _ prefix: [UInt8]) -> Bool {
        bytes.count >= prefix.count && zip(bytes, prefix).allSatisfy { $0 == $1 }
    }

    static func hex(_ b: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(b >> 4)], digits[Int(b & 15)]])
    }
}

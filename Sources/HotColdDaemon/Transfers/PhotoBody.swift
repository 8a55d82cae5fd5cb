import Foundation

/// The body of a submission whose photo is kept in a file, as the web API receives it: the
/// stored payload up to ``at`` (just inside the quotes of `"data_base64":""`), the photo's
/// standard base64 (padded, no line breaks), and the rest of the payload — exactly the bytes
/// the body had when photos were kept inline, so a resend after an upgrade is the same request
/// for the server's idempotency check. Any slice of it is made from the photo's bytes under
/// it alone (``slice(from:count:read:)``), so neither the whole photo nor its base64 is ever
/// held: a slice of 192 KiB needs 144 KiB of the file.
struct PhotoBody {
    let payload: Data
    let at: Int
    let photoBytes: Int

    var base64Length: Int { (photoBytes + 2) / 3 * 4 }
    var count: Int { payload.count + base64Length }

    /// Up to `count` bytes of the body from `offset`; `read(offset, count)` gives the photo's bytes.
    func slice(from offset: Int, count wanted: Int, read: (Int, Int) throws -> Data) rethrows -> Data {
        let end = min(count, offset + max(0, wanted))
        var out = Data()
        guard offset < end else { return out }
        out.reserveCapacity(end - offset)
        let photoEnd = at + base64Length
        // The payload before the photo.
        if offset < at { out.append(payload[payload.startIndex + offset ..< payload.startIndex + min(end, at)]) }
        // The photo's base64: whole groups of 3 bytes → 4 characters, cut to the range asked.
        let from = max(offset, at), to = min(end, photoEnd)
        if from < to {
            let firstGroup = (from - at) / 4, lastGroup = (to - at + 3) / 4
            let start = firstGroup * 3
            let bytes = try read(start, min(lastGroup * 3, photoBytes) - start)
            let text = Data(bytes.base64EncodedString().utf8)
            let skip = (from - at) - firstGroup * 4
            out.append(text[text.startIndex + skip ..< text.startIndex + skip + (to - from)])
        }
        // The payload after it.
        if end > photoEnd {
            let a = max(offset, photoEnd) - base64Length, b = end - base64Length
            out.append(payload[payload.startIndex + a ..< payload.startIndex + b])
        }
        return out
    }
}

import HotColdCore
import HTTPTypes
import Hummingbird
import NIOCore

/// One of the page's files as served: its bytes, type and an entity tag made from its bytes.
///
/// The page is 23 modules, a style sheet and a document, sent `no-cache` so that a phone never
/// runs an older script beside a newer daemon: it asks each time, and with the tag
/// (`If-None-Match`) an unchanged file costs a `304` of a few bytes instead of the file again.
struct StaticAsset: Sendable {
    let bytes: ByteBuffer
    let type: String
    /// A strong validator: the FNV-1a hash of the bytes (a cache key, not a secret), quoted.
    let etag: String

    init(_ text: String, type: String) {
        bytes = ByteBuffer(string: text)
        self.type = type
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in text.utf8 { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
        let hex = String(h, radix: 16)
        etag = "\"" + String(repeating: "0", count: 16 - hex.count) + hex + "\""
    }

    /// `304 Not Modified` when the request's `If-None-Match` names this file's tag (or `*`),
    /// else the file.
    func response(to request: Request) -> Response {
        var headers: HTTPFields = [.contentType: type, .cacheControl: "no-cache", .eTag: etag]
        if let asked = request.headers[.ifNoneMatch], Self.matches(asked, etag) {
            headers[.contentType] = nil
            return Response(status: .notModified, headers: headers)
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: bytes))
    }

    /// RFC 9110 §13.1.2: `*`, or a comma-separated list of tags compared weakly (a `W/` prefix
    /// ignored), so a proxy that weakened the tag still gets its 304.
    static func matches(_ header: String, _ etag: String) -> Bool {
        header.split(separator: ",").contains { item in
            var t = item.trimmingBlanks()
            if t == "*" { return true }
            if t.hasPrefix("W/") { t = t.dropFirst(2) }
            return t == etag[...]
        }
    }
}

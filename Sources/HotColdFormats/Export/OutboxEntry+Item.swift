import Foundation
import HotColdProtocol

/// An outbox item as `hotcold outbox` and the daemon's `outbox` reply list it: the queued body
/// without a photo's bytes (which can be megabytes), read through typed JSON values. One mapping
/// for both paths (offline `--db` and through the daemon), so they print the same.
extension OutboxEntry {
    public init(_ i: OutboxItem) {
        self = Self.entry(i)
    }

    package static func entry(_ i: OutboxItem) -> OutboxEntry {
        let body = try? JSONDecoder().decode(JSONValue.self, from: i.payload)
        return OutboxEntry(
            id: i.id ?? 0, kind: i.kind.rawValue, state: i.state.rawValue, idempotencyKey: i.idempotencyKey,
            placeId: i.placeId, submissionId: i.submissionId, attempts: i.attempts, createdAt: i.createdAt,
            lastAttemptAt: i.lastAttemptAt,
            nextAttemptAt: i.state == .pending ? max(i.nextAttemptAt, i.notBefore ?? .distantPast) : nil,
            lastError: i.lastError, httpStatus: i.httpStatus,
            request: body.map { brief($0, photoBytes: i.photoBytes) } ?? String(decoding: i.payload, as: UTF8.self),
            name: body?["name"]?.string, response: i.responseText)
    }

    /// The body as compact JSON with `photo.data_base64` replaced by "(N bytes)" (`photoBytes`:
    /// the length of a photo kept apart from the body).
    package static func brief(_ body: JSONValue, photoBytes: Int? = nil) -> String {
        var shown = body
        if case .object(var o) = body, case .object(var photo)? = o["photo"], let b64 = photo["data_base64"]?.string {
            photo["data_base64"] = .string("(\(photoBytes ?? Data(base64Encoded: b64)?.count ?? 0) bytes)")
            o["photo"] = .object(photo)
            shown = .object(o)
        }
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? e.encode(shown)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }
}

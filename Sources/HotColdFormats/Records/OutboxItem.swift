import Foundation

/// One thing waiting to go to the Big Things web API (a rating or a submission), and what
/// became of it.
///
/// An item is created in the same transaction as the local change it carries (``Store/rate(placeID:user:stars:at:share:)``,
/// ``Store/submit(_:photo:)``), with its idempotency key and its exact request body. Neither
/// changes afterwards, so every resend is the same request and the server counts it once.
///
/// States (``State``):
/// ```
///            ┌── 2xx reply stored ──────────▶ delivered (response, http_status)
/// pending ───┼── 400/404/409/422 (final) ────▶ failed (last_error = the server's message)
///    ▲       └── 408/429/5xx/timeout/network ─┐
///    └──── attempts += 1, next_attempt_at ◀───┘ (capped exponential backoff with jitter;
///                                               Retry-After also sets not_before)
/// ```
/// `delivered` and `failed` are final. An item becomes `delivered` only in the transaction
/// that stores the server's reply, so a crash before that leaves it `pending` and it is sent
/// again with the same key.
///
/// ```swift
/// let pending = try store.outbox(states: [.pending])
/// ```
public struct OutboxItem: Codable, Sendable, Equatable, Identifiable, Hashable {
    public static let databaseTableName = "outbox"

    public enum Kind: String, Codable, Sendable, CaseIterable { case rating, submission }
    public enum State: String, Codable, Sendable, CaseIterable { case pending, delivered, failed }

    public var id: Int64?
    public var kind: Kind
    public var idempotencyKey: String
    /// Relative to the API's base URL: `bigthings/{id}/ratings` or `bigthings/submissions`.
    public var path: String
    /// The JSON request body, exactly as sent.
    public var payload: Data
    public var user: String
    public var placeId: String?
    public var submissionId: Int64?
    public var state: State
    public var attempts: Int
    public var createdAt: Date
    public var lastAttemptAt: Date?
    public var nextAttemptAt: Date
    /// The server's Retry-After: no attempt before this, even on a manual sync.
    public var notBefore: Date?
    public var lastError: String?
    public var httpStatus: Int?
    /// The server's reply body (delivered) or error body (failed).
    public var response: Data?
    var finishedAt: Date?

    public init(id: Int64? = nil, kind: Kind, idempotencyKey: String = UUID().uuidString.lowercased(),
                path: String, payload: Data, user: String, placeId: String? = nil,
                submissionId: Int64? = nil, createdAt: Date = Date()) {
        self.id = id
        self.kind = kind
        self.idempotencyKey = idempotencyKey
        self.path = path
        self.payload = payload
        self.user = user
        self.placeId = placeId
        self.submissionId = submissionId
        self.state = .pending
        self.attempts = 0
        self.createdAt = createdAt
        self.nextAttemptAt = createdAt
    }

    /// The request body as text (for listings).
    public var payloadText: String { String(decoding: payload, as: UTF8.self) }
    var responseText: String? { response.map { String(decoding: $0, as: UTF8.self) } }
}

/// A photo attached to a submission: read and base64'd when the submission is made, so the
/// outbox holds everything it will send even if the file later moves.
public struct SubmissionPhoto: Sendable, Equatable {
    public var filename: String
    public var contentType: String
    public var data: Data

    public init(filename: String, contentType: String, data: Data) {
        self.filename = filename
        self.contentType = contentType
        self.data = data
    }

    /// Reads a photo file; the content type comes from the extension.
    ///
    /// ```swift
    /// let p = try SubmissionPhoto(contentsOf: URL(fileURLWithPath: "wombat.jpg"))   // image/jpeg
    /// ```
    public init(contentsOf url: URL) throws {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw StoreError.unreadablePhoto(path: url.path, reason: (error as NSError).localizedDescription)
        }
        self.init(filename: url.lastPathComponent, contentType: SubmissionPhoto.contentType(forExtension: url.pathExtension),
                  data: data)
    }

    public static func contentType(forExtension ext: String) -> String {
        switch ext.lowercased() {
        case "jpg", "jpeg": "image/jpeg"
        case "png": "image/png"
        case "gif": "image/gif"
        case "webp": "image/webp"
        case "heic": "image/heic"
        case "heif": "image/heif"
        case "tif", "tiff": "image/tiff"
        default: "application/octet-stream"
        }
    }
}

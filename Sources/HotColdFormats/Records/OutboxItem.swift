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
    /// The JSON request body, exactly as sent; for a submission whose photo is kept in a file
    /// of its own (``photoFile``), the body with `photo.data_base64` empty, the photo's base64
    /// going in at ``photoAt`` as it is sent.
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
    /// The daemon's own name for the file holding a submission's photo (random letters and
    /// digits, never a sender's file name), while the item waits; nil for items queued with the
    /// photo's base64 inline in ``payload`` (before photos were kept in files, and `--db`).
    public var photoFile: String?
    /// The photo file's length in bytes.
    public var photoBytes: Int?
    /// Where in ``payload`` the photo's base64 goes: just inside the quotes of `"data_base64":""`.
    public var photoAt: Int?
    /// The submitter's idempotency key (`submit`'s `key`), unique per user.
    public var submitKey: String?

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

    /// The length of the body as sent: the payload, with the photo's base64 when it is kept apart.
    public var bodyBytes: Int { payload.count + (photoBytes.map(Self.base64Length) ?? 0) }

    /// Characters of the padded base64 of `bytes` bytes.
    public static func base64Length(_ bytes: Int) -> Int { (bytes + 2) / 3 * 4 }
    var responseText: String? { response.map { String(decoding: $0, as: UTF8.self) } }
}

/// A photo attached to a submission, and where its bytes are: in memory (queued as base64 in
/// the outbox row, as `hotcold --db` does), or in a file the daemon keeps for the outbox item
/// until it is delivered (``Content/file(id:bytes:)``), so a photo never sits in the daemon's
/// memory or in its database.
public struct SubmissionPhoto: Sendable, Equatable {
    public enum Content: Sendable, Equatable {
        case bytes(Data)
        /// A file of the daemon's photo directory, by its own name, and its length.
        case file(id: String, bytes: Int)
    }

    public var filename: String
    public var contentType: String
    public var content: Content

    public init(filename: String, contentType: String, data: Data) {
        self.filename = filename
        self.contentType = contentType
        self.content = .bytes(data)
    }

    public init(filename: String, contentType: String, content: Content) {
        self.filename = filename
        self.contentType = contentType
        self.content = content
    }

    /// The bytes of a photo held in memory (empty for one kept in a file).
    public var data: Data {
        if case .bytes(let d) = content { return d }
        return Data()
    }

    /// The photo's length in bytes.
    public var size: Int {
        switch content {
        case .bytes(let d): d.count
        case .file(_, let bytes): bytes
        }
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

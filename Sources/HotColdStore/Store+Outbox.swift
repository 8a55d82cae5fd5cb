import Foundation
import GRDB
import HotColdCore
import HotColdFormats
import HotColdProtocol

/// The web API's outbox and catalogue sync, on the store's side: queueing in the caller's
/// transaction, and the transitions of ``OutboxItem``'s state machine. The HTTP side lives in
/// `HotColdSync`.
extension Store {
    // MARK: Queueing (inside the transaction of the local change)

    /// Queues a rating of a Big Thing (other kinds are not the catalogue's business).
    /// Returns the item, or nil when the place is not a Big Thing.
    ///
    /// At most one rating per user and place waits: a re-rating while offline replaces the
    /// queued one, in this same transaction. The replacement gets a fresh idempotency key and
    /// a place at the end of the queue, never the old item's key with a new body (a server
    /// that already saw that key would keep the old stars). If the old item was being sent
    /// at that moment, its delivery is still counted once by the server, and the newer rating
    /// follows it; the old row, gone, is simply not marked delivered.
    @discardableResult
    static func enqueueRating(_ db: Database, _ rating: Rating) throws -> OutboxItem? {
        guard let place = try Place.fetchOne(db, key: rating.placeId), place.kind == .bigThing else { return nil }
        try db.execute(sql: "DELETE FROM outbox WHERE kind = 'rating' AND state = 'pending' AND user = ? AND place_id = ?",
                       arguments: [rating.user, rating.placeId])
        let body = RatingBody(stars: rating.stars, ratedAt: ISO8601.format(rating.ratedAt), user: rating.user)
        let item = OutboxItem(kind: .rating, path: "bigthings/\(pathSegment(rating.placeId))/ratings",
                              payload: try outboxJSON(body), user: rating.user, placeId: rating.placeId,
                              createdAt: Date())
        try item.insert(db)
        return item
    }

    /// Queues a submission (already inserted, so it has its id) with its photo: a photo in
    /// memory goes into the body as base64; a photo in a file of the daemon's is named by the
    /// item, and the body keeps `photo.data_base64` empty with ``OutboxItem/photoAt`` where its
    /// base64 goes when it is sent (the body as sent is the same bytes either way).
    @discardableResult
    static func enqueueSubmission(_ db: Database, _ s: Submission, photo: SubmissionPhoto?, key: String? = nil) throws -> OutboxItem {
        let inline: String
        if case .bytes(let data)? = photo?.content { inline = data.base64EncodedString() } else { inline = "" }
        let body = SubmissionBody(
            name: s.name, lat: s.latitude, lon: s.longitude, address: s.address,
            seenAt: ISO8601.format(s.seenAt), submittedBy: s.submittedBy,
            photo: photo.map { .init(filename: $0.filename, contentType: $0.contentType, dataBase64: inline) })
        let payload = try outboxJSON(body)
        var item = OutboxItem(kind: .submission, path: "bigthings/submissions", payload: payload,
                              user: s.user, submissionId: s.id, createdAt: Date())
        item.submitKey = key
        if case .file(let id, let bytes)? = photo?.content {
            guard let at = photoInsertionPoint(payload) else {
                throw ProtocolError(.internal, command: "submit", "the queued body has no place for the photo")
            }
            item.photoFile = id
            item.photoBytes = bytes
            item.photoAt = at
        }
        try item.insert(db)
        return item
    }

    /// ``submit(_:photo:)`` once per idempotency key: with a `key` the user already queued a
    /// submission under, nothing is stored and that submission is returned (`queued` false),
    /// so a sender that lost the reply and asks again gets the first one, not a duplicate.
    /// The check and the insert are one transaction, and the key is unique per user in the
    /// table itself.
    public func submit(_ submission: Submission, photo: SubmissionPhoto?, key: String?) throws -> (submission: Submission, queued: Bool) {
        try write { db in
            if let key, let earlier = try Store.submission(db, key: key, user: submission.user) { return (earlier, false) }
            try Store.requireRoom(db, quota: "pending_submissions_per_user", limit: quotas.pendingSubmissionsPerUser,
                                  user: submission.user, sql: Quota.pendingSubmissions)
            let s = try submission.inserted(db)
            try Store.enqueueSubmission(db, s, photo: photo, key: key)
            return (s, true)
        }
    }

    /// Where the photo's base64 goes in a body encoded with `"data_base64":""`: inside its
    /// quotes. The key's quotes are the encoder's own (a quote inside a string value is
    /// escaped), so the sequence occurs once, as the key.
    static func photoInsertionPoint(_ payload: Data) -> Int? {
        let marker = Array("\"data_base64\":\"\"".utf8)
        let bytes = [UInt8](payload)
        guard bytes.count >= marker.count else { return nil }
        for i in 0...(bytes.count - marker.count) where bytes[i] == marker[0] && Array(bytes[i..<i + marker.count]) == marker {
            return i + marker.count - 1
        }
        return nil
    }

    // MARK: Reading

    /// Items in delivery order, optionally only some states and only one user's.
    public func outbox(states: Set<OutboxItem.State>? = nil, user: String? = nil) throws -> [OutboxItem] {
        try database.read { db in
            var q = OutboxItem.all()
            if let states { q = q.filter(states.map(\.rawValue).contains(OutboxItem.Columns.state)) }
            if let user { q = q.filter(Column("user") == user) }
            return try q.order(OutboxItem.Columns.id).fetchAll(db)
        }
    }

    /// The first pending item (delivery order) after `afterID`, whether due or not.
    public func nextPendingOutboxItem(after afterID: Int64 = 0) throws -> OutboxItem? {
        try database.read { db in
            try OutboxItem.filter(OutboxItem.Columns.state == OutboxItem.State.pending.rawValue
                                  && OutboxItem.Columns.id > afterID)
                .order(OutboxItem.Columns.id).fetchOne(db)
        }
    }

    /// How many items wait and when the first may go, without reading their payloads.
    public func outboxPendingSummary() throws -> OutboxPendingSummary {
        try database.read { db in
            let pending = OutboxItem.filter(OutboxItem.Columns.state == OutboxItem.State.pending.rawValue)
            let count = try pending.fetchCount(db)
            let row = try Row.fetchOne(db, sql: """
                SELECT next_attempt_at, not_before FROM outbox WHERE state = 'pending' ORDER BY id LIMIT 1
                """)
            return OutboxPendingSummary(count: count, nextAttemptAt: row?.storedDate(ifPresent: "next_attempt_at"),
                                        notBefore: row?.storedDate(ifPresent: "not_before"))
        }
    }

    /// Up to `length` bytes of an item's stored payload from `offset`, and the payload's whole
    /// length; nil when there is no such item. (An item queued with its photo inline can be
    /// megabytes: read in slices.)
    public func outboxPayloadSlice(id: Int64, offset: Int, length: Int) throws -> (data: Data, total: Int)? {
        try database.read { db in
            guard let row = try Row.fetchOne(db, sql: """
                SELECT substr(payload, ?, ?) AS slice, length(payload) AS total FROM outbox WHERE id = ?
                """, arguments: [offset + 1, max(0, length), id]) else { return nil }
            let slice: Data = row["slice"] ?? Data()
            return (slice, row["total"] ?? 0)
        }
    }

    public func outboxItem(id: Int64) throws -> OutboxItem? {
        try database.read { db in try OutboxItem.fetchOne(db, key: id) }
    }

    /// The first pending item after `afterID` (delivery order), with its stored payload only
    /// when that is at most `inlineUpTo` bytes (else empty: an item queued with its photo
    /// inline holds megabytes, read in slices), and the stored payload's length.
    public func nextPendingOutboxHead(after afterID: Int64, inlineUpTo: Int) throws -> (item: OutboxItem, payloadBytes: Int)? {
        try database.read { db in
            guard let row = try Row.fetchOne(db, sql: """
                SELECT id, kind, idempotency_key, path, user, place_id, submission_id, state, attempts, created_at,
                       last_attempt_at, next_attempt_at, not_before, last_error, http_status, response, finished_at,
                       photo_file, photo_bytes, photo_at, submit_key,
                       CASE WHEN length(payload) <= ? THEN payload ELSE x'' END AS payload,
                       length(payload) AS payload_bytes
                FROM outbox WHERE state = 'pending' AND id > ? ORDER BY id LIMIT 1
                """, arguments: [inlineUpTo, afterID]) else { return nil }
            return (try OutboxItem(row: row), row["payload_bytes"] ?? 0)
        }
    }

    /// For an item whose photo is kept in a file: its stored payload (small: the photo is
    /// apart), the file, the photo's length and where its base64 goes. nil for any other item,
    /// whose payload is not read.
    public func outboxPhotoLayout(id: Int64) throws -> (payload: Data, file: String, bytes: Int, at: Int)? {
        try database.read { db in
            guard let row = try Row.fetchOne(db, sql: """
                SELECT payload, photo_file, photo_bytes, photo_at FROM outbox
                WHERE id = ? AND photo_file IS NOT NULL AND photo_bytes IS NOT NULL AND photo_at IS NOT NULL
                """, arguments: [id]) else { return nil }
            return (row["payload"], row["photo_file"], row["photo_bytes"], row["photo_at"])
        }
    }

    /// The photo files that waiting items name: every other file in the daemon's photo
    /// directory belongs to nothing (a delivery or a crash between the file and the commit).
    public func pendingPhotoFiles() throws -> Set<String> {
        try database.read { db in
            Set(try String.fetchAll(db, sql: "SELECT photo_file FROM outbox WHERE state = 'pending' AND photo_file IS NOT NULL"))
        }
    }

    /// The submission `user` queued with idempotency key `key`, if any.
    public func submission(key: String, user: String) throws -> Submission? {
        try database.read { db in try Store.submission(db, key: key, user: user) }
    }

    static func submission(_ db: Database, key: String, user: String) throws -> Submission? {
        try Submission.fetchOne(db, sql: """
            SELECT submission.* FROM submission JOIN outbox ON outbox.submission_id = submission.id
            WHERE outbox.user = ? AND outbox.submit_key = ?
            """, arguments: [user, key])
    }

    // MARK: Transitions

    /// Counts an attempt before the request goes out (for the listing; delivery does not
    /// depend on it). Returns false when the item is no longer pending (another process
    /// delivered it meanwhile).
    public func beginOutboxAttempt(id: Int64, at now: Date = Date()) throws -> Bool {
        try write { db in
            try db.execute(sql: "UPDATE outbox SET attempts = attempts + 1, last_attempt_at = ? WHERE id = ? AND state = 'pending'",
                           arguments: [StoredDate.string(now), id])
            return db.changesCount > 0
        }
    }

    /// Records the server's reply and marks the item delivered, in one transaction: a crash
    /// before the commit leaves it pending (resent with the same key); after, it is done.
    /// For a rating, the catalogue's new rating and vote count from the reply are stored too.
    public func markOutboxDelivered(id: Int64, status: Int, response: Data,
                                    catalogue: (placeID: String, rating: Double?, votes: Int?)?,
                                    at now: Date = Date()) throws {
        try write { db in
            try db.execute(sql: """
                UPDATE outbox SET state = 'delivered', http_status = ?, response = ?, last_error = NULL,
                                  finished_at = ? WHERE id = ? AND state = 'pending'
                """, arguments: [status, response, StoredDate.string(now), id])
            if let c = catalogue {
                try db.execute(sql: "UPDATE big_thing SET rating = ?, votes = ? WHERE place_id = ?",
                               arguments: [c.rating, c.votes, c.placeID])
            }
        }
    }

    /// A final refusal (400/404/409/422): kept, with the server's message, for the user to see.
    public func markOutboxFailed(id: Int64, status: Int?, message: String, response: Data?, at now: Date = Date()) throws {
        try write { db in
            try db.execute(sql: """
                UPDATE outbox SET state = 'failed', http_status = ?, last_error = ?, response = ?, finished_at = ?
                WHERE id = ? AND state = 'pending'
                """, arguments: [status, message, response, StoredDate.string(now), id])
        }
    }

    /// The file item `id`'s photo is kept in, if it has one (delivered or refused, the file is
    /// no longer needed once that is committed).
    public func outboxPhotoFile(id: Int64) throws -> String? {
        try database.read { db in
            try String.fetchOne(db, sql: "SELECT photo_file FROM outbox WHERE id = ?", arguments: [id])
        }
    }

    /// A retryable failure: stays pending until `next`; `notBefore` is the server's Retry-After.
    public func scheduleOutboxRetry(id: Int64, error: String, status: Int?, next: Date, notBefore: Date?) throws {
        try write { db in
            try db.execute(sql: """
                UPDATE outbox SET last_error = ?, http_status = ?, next_attempt_at = ?, not_before = ?
                WHERE id = ? AND state = 'pending'
                """, arguments: [error, status, StoredDate.string(next), notBefore.map(StoredDate.string), id])
        }
    }

    // MARK: Catalogue sync

    public static let catalogueETagKey = "catalogue.etag"
    static let catalogueUpdatedKey = "catalogue.updated"

    public func syncValue(_ key: String) throws -> String? {
        try database.read { db in
            try String.fetchOne(db, sql: "SELECT value FROM sync_state WHERE key = ?", arguments: [key])
        }
    }

    public func setSyncValue(_ key: String, _ value: String?) throws {
        try write { db in try Store.setSyncValue(db, key, value) }
    }

    static func setSyncValue(_ db: Database, _ key: String, _ value: String?, now: Date = Date()) throws {
        if let value {
            try db.execute(sql: """
                INSERT INTO sync_state (key, value, updated_at) VALUES (?, ?, ?)
                ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at
                """, arguments: [key, value, StoredDate.string(now)])
        } else {
            try db.execute(sql: "DELETE FROM sync_state WHERE key = ?", arguments: [key])
        }
    }

    /// Applies the server's full catalogue (`{"updated", "things"}`) in one transaction:
    /// imports it, marks Big Things missing from the list withdrawn (never deleted: visits and
    /// ratings stay), reinstates listed ones that were withdrawn, and stores the ETag. A
    /// malformed body throws and changes nothing, the ETag included.
    ///
    /// ```swift
    /// let r = try store.applyCatalogue(body, etag: "\"v42\"", source: "https://api/bigthings")
    /// ```
    public func applyCatalogue(_ data: Data, etag: String?, source: String, user: String = CurrentUser.name) throws -> CatalogueSyncReport {
        let batch = try Importer.parse(data, file: source, user: user)
        guard batch.format == .bigThingsAPI || batch.format == .bigThingsCatalogue else {
            throw ImportError.unrecognisedFormat(file: source, reason: "expected the Big Things list ({\"updated\", \"things\"})")
        }
        // Every id the server listed, valid or not: a row skipped for a bad coordinate is
        // still in the catalogue and must not be withdrawn.
        let (_, json) = try Importer.detectAndRead(data, file: source)
        let listed = Set((json?["things"]?.array ?? []).compactMap { JSONRow.idText($0.object?["id"]) })
        guard !listed.isEmpty else { throw StoreError.emptyCatalogue }
        let updated = json?["updated"]?.string
        return try write { db in
            var report = CatalogueSyncReport(importReport: try Store.write(batch, file: source, db))
            let rows = try Row.fetchAll(db, sql: "SELECT place_id, withdrawn, status FROM big_thing")
            for row in rows {
                let id: String = row["place_id"]
                let withdrawn: Bool = row["withdrawn"]
                if listed.contains(id) {
                    guard withdrawn else { continue }
                    let status: String? = row["status"]
                    let gone = ["demolished", "removed"].contains(status?.lowercased() ?? "")
                    try db.execute(sql: "UPDATE big_thing SET withdrawn = 0 WHERE place_id = ?", arguments: [id])
                    try db.execute(sql: "UPDATE place SET active = ? WHERE id = ?", arguments: [!gone, id])
                    report.reinstated.append(id)
                } else if !withdrawn {
                    try db.execute(sql: "UPDATE big_thing SET withdrawn = 1 WHERE place_id = ?", arguments: [id])
                    try db.execute(sql: "UPDATE place SET active = 0 WHERE id = ?", arguments: [id])
                    report.withdrawn.append(id)
                }
            }
            try Store.setSyncValue(db, Store.catalogueETagKey, etag)
            try Store.setSyncValue(db, Store.catalogueUpdatedKey, updated)
            return report
        }
    }

    // MARK: Bodies

    static func pathSegment(_ id: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/?#")
        return id.addingPercentEncoding(withAllowedCharacters: allowed) ?? id
    }

    static func outboxJSON(_ value: some Encodable) throws -> Data {
        let enc = JSONEncoder()
        enc.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try enc.encode(value)
    }

    struct RatingBody: Encodable {
        var stars: Int
        var ratedAt: String
        var user: String
        enum CodingKeys: String, CodingKey { case stars, ratedAt = "rated_at", user }
    }

    struct SubmissionBody: Encodable {
        struct Photo: Encodable {
            var filename: String
            var contentType: String
            var dataBase64: String
            enum CodingKeys: String, CodingKey { case filename, contentType = "content_type", dataBase64 = "data_base64" }
        }
        var name: String
        var lat: Double?
        var lon: Double?
        var address: String?
        var seenAt: String
        var submittedBy: String?
        var photo: Photo?
        enum CodingKeys: String, CodingKey {
            case name, lat, lon, address, seenAt = "seen_at", submittedBy = "submitted_by", photo
        }
    }
}

import GRDB
import HotColdFormats

/// The schema, one registered migration per released version. Never edit a released migration:
/// add a new one, so every database ever created reaches the current schema.
///
/// ```swift
/// try StoreMigrations.migrator.migrate(dbPool)
/// ```
public enum StoreMigrations {
    /// Registered in order; the first is the schema of the first release. The migrator itself
    /// lists them (`migrations`) and says which a database has (`completedMigrations(_:)`).
    public static var migrator: DatabaseMigrator {
        var m = DatabaseMigrator()
        m.registerMigration("v1", migrate: v1)
        m.registerMigration("v2-outbox", migrate: v2Outbox)
        m.registerMigration("v3-quotas", migrate: v3Quotas)
        m.registerMigration("v4-visit-departure", migrate: v4VisitDeparture)
        m.registerMigration("v5-imported-by", migrate: v5ImportedBy)
        m.registerMigration("v6-friends", migrate: v6Friends)
        m.registerMigration("v7-feed-zero-stars", migrate: v7FeedZeroStars)
        m.registerMigration("v8-feed-owner", migrate: v8FeedOwner)
        m.registerMigration("v9-outbox-photo-files", migrate: v9OutboxPhotoFiles)
        return m
    }

    static func v1(_ db: Database) throws {
        try db.create(table: "place") { t in
            t.primaryKey("id", .text)
            t.column("kind", .text).notNull().indexed()
            t.column("name", .text).notNull()
            t.column("latitude", .double).notNull()
                .check { $0 >= -90 && $0 <= 90 }
            t.column("longitude", .double).notNull()
                .check { $0 >= -180 && $0 <= 180 }
            t.column("active", .boolean).notNull().defaults(to: true)
            t.column("search_text", .text).notNull()
        }
        // Bounding-box prefilters for radius queries on the database side.
        try db.create(index: "place_on_latitude", on: "place", columns: ["latitude"])

        try db.create(table: "big_thing") { t in
            t.primaryKey("place_id", .text).references("place", onDelete: .cascade)
            t.column("state", .text).notNull().indexed()
            t.column("town", .text)
            t.column("location", .text)
            t.column("description", .text)
            t.column("photo_url", .text)
            t.column("rating", .double)
            t.column("votes", .integer)
            t.column("tags", .jsonText).notNull().defaults(to: "[]")
            t.column("category", .text)
            t.column("year", .integer)
            t.column("status", .text)
            t.column("coord_precision", .text)
            t.column("withdrawn", .boolean).notNull().defaults(to: false)
        }

        try db.create(table: "geocache") { t in
            t.primaryKey("place_id", .text).references("place", onDelete: .cascade)
            t.column("code", .text).notNull().unique()
            t.column("cache_type", .text)
            t.column("container", .text)
            t.column("difficulty", .double)
            t.column("terrain", .double)
            t.column("owner", .text)
            t.column("placed_by", .text)
            t.column("hint", .text)
            t.column("short_description", .text)
            t.column("long_description", .text)
            t.column("description_is_html", .boolean).notNull().defaults(to: false)
            t.column("logs_count", .integer).notNull().defaults(to: 0)
            t.column("available", .boolean).notNull().defaults(to: true)
            t.column("archived", .boolean).notNull().defaults(to: false)
            t.column("country", .text)
            t.column("region", .text)
            t.column("placed_at", .datetime)
            t.column("url", .text)
            t.column("original_latitude", .double)
            t.column("original_longitude", .double)
        }

        try db.create(table: "waypoint") { t in
            t.primaryKey("place_id", .text).references("place", onDelete: .cascade)
            // No foreign key: waypoint files may arrive before their caches.
            t.column("parent_id", .text).notNull().indexed()
            t.column("waypoint_type", .text)
            t.column("comment", .text)
            t.column("description", .text)
        }

        try db.create(table: "location") { t in
            t.primaryKey("place_id", .text).references("place", onDelete: .cascade)
            t.column("origin", .text).notNull().check { [LocationOrigin.default.rawValue, LocationOrigin.custom.rawValue].contains($0) }
            t.column("created_by", .text)
            t.column("created_at", .datetime)
        }

        // User state. Places are never deleted by imports, so RESTRICT protects history.
        try db.create(table: "visit") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("place_id", .text).notNull().references("place", onDelete: .restrict)
            t.column("user", .text).notNull()
            t.column("visited_at", .datetime).notNull()
            t.column("method", .text).notNull().check { ["automatic", "manual"].contains($0) }
            t.column("episode", .text)
            t.column("photo_path", .text)
        }
        // One automatic visit per arrival episode; NULL episodes (manual visits) never collide.
        try db.create(index: "visit_episode", on: "visit", columns: ["user", "place_id", "episode"], unique: true)
        try db.create(index: "visit_on_place", on: "visit", columns: ["place_id", "user"])

        try db.create(table: "favourite") { t in
            t.column("user", .text).notNull()
            t.column("place_id", .text).notNull().references("place", onDelete: .restrict)
            t.column("created_at", .datetime).notNull()
            t.primaryKey(["user", "place_id"])
        }

        try db.create(table: "rating") { t in
            t.column("user", .text).notNull()
            t.column("place_id", .text).notNull().references("place", onDelete: .restrict)
            t.column("stars", .integer).notNull().check { $0 >= 0 && $0 <= 5 }
            t.column("rated_at", .datetime).notNull()
            t.primaryKey(["user", "place_id"])
        }

        try db.create(table: "note") { t in
            t.column("user", .text).notNull()
            t.column("place_id", .text).notNull().references("place", onDelete: .restrict)
            t.column("text", .text).notNull().check { length($0) <= 500 }
            t.column("updated_at", .datetime).notNull()
            t.primaryKey(["user", "place_id"])
        }

        try db.create(table: "submission") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("user", .text).notNull()
            t.column("name", .text).notNull()
            t.column("latitude", .double)
            t.column("longitude", .double)
            t.column("address", .text)
            t.column("seen_at", .datetime).notNull()
            t.column("submitted_by", .text)
            t.column("photo_path", .text)
            t.column("created_at", .datetime).notNull()
            t.check(sql: "(latitude IS NOT NULL AND longitude IS NOT NULL) OR address IS NOT NULL")
        }

        try db.create(table: "observation") { t in
            t.primaryKey("id", .text)
            t.column("user", .text).notNull()
            t.column("classification", .text).notNull()
                .check { ObservationClassification.allCases.map(\.rawValue).contains($0) }
            t.column("title", .text).notNull()
            t.column("description", .text)
            t.column("observed_at", .datetime).notNull()
            t.column("latitude", .double)
            t.column("longitude", .double)
        }
    }

    /// The web API's outbox (what waits to be sent, and what became of it) and the sync state
    /// (the catalogue's last ETag). See ``OutboxItem`` for the state machine.
    static func v2Outbox(_ db: Database) throws {
        try db.create(table: "outbox") { t in
            // AUTOINCREMENT: ids never reused, so the id is the delivery order.
            t.autoIncrementedPrimaryKey("id")
            t.column("kind", .text).notNull().check { ["rating", "submission"].contains($0) }
            // Created with the item, in the same transaction as the local change; never changed.
            t.column("idempotency_key", .text).notNull().unique()
            // Relative to the API's base URL, e.g. "bigthings/halans:d0577fb8cf/ratings".
            t.column("path", .text).notNull()
            // The exact JSON body, built when the item was created: every resend is identical.
            t.column("payload", .blob).notNull()
            t.column("user", .text).notNull()
            t.column("place_id", .text)
            t.column("submission_id", .integer).references("submission", onDelete: .restrict)
            t.column("state", .text).notNull().defaults(to: "pending")
                .check { ["pending", "delivered", "failed"].contains($0) }
            t.column("attempts", .integer).notNull().defaults(to: 0)
            t.column("created_at", .datetime).notNull()
            t.column("last_attempt_at", .datetime)
            // Our own backoff, and the server's Retry-After (which even a manual sync honours).
            t.column("next_attempt_at", .datetime).notNull()
            t.column("not_before", .datetime)
            t.column("last_error", .text)
            t.column("http_status", .integer)
            t.column("response", .blob)
            t.column("finished_at", .datetime)
        }
        try db.create(index: "outbox_on_state", on: "outbox", columns: ["state", "id"])
        try db.create(table: "sync_state") { t in
            t.primaryKey("key", .text)
            t.column("value", .text).notNull()
            t.column("updated_at", .datetime).notNull()
        }
    }

    /// Per-user quotas (``StoreQuotas``) count rows by user on every write that grows storage:
    /// an index for each count. And one pending rating per user and place: older duplicates
    /// (queued before this rule) are dropped, keeping the latest, and a partial unique index
    /// holds the rule from now on.
    static func v3Quotas(_ db: Database) throws {
        try db.create(index: "location_on_created_by", on: "location", columns: ["created_by", "origin"])
        try db.create(index: "observation_on_user", on: "observation", columns: ["user"])
        try db.create(index: "visit_on_user_method", on: "visit", columns: ["user", "method"])
        try db.create(index: "outbox_on_user", on: "outbox", columns: ["user", "kind", "state"])
        try db.execute(sql: """
            DELETE FROM outbox WHERE kind = 'rating' AND state = 'pending' AND id NOT IN (
                SELECT MAX(id) FROM outbox WHERE kind = 'rating' AND state = 'pending' GROUP BY user, place_id)
            """)
        try db.execute(sql: """
            CREATE UNIQUE INDEX outbox_one_pending_rating ON outbox(user, place_id)
            WHERE kind = 'rating' AND state = 'pending'
            """)
    }

    /// When the device left the place of an automatic visit. NULL while it is still there: the
    /// daemon restores those places at start, so a restart is no new arrival.
    ///
    /// Visits stored before this version never recorded their departure; they are closed here
    /// with their arrival time (the only time known), so an upgrade does not make the daemon
    /// believe it is still at every place ever visited. At worst, an upgrade while parked at a
    /// place sends that one arrival again.
    static func v4VisitDeparture(_ db: Database) throws {
        try db.alter(table: "visit") { t in
            t.add(column: "departed_at", .datetime)
        }
        try db.execute(sql: "UPDATE visit SET departed_at = visited_at WHERE method = 'automatic'")
        // The daemon's start-up query: this user's automatic visits with no departure.
        try db.create(index: "visit_open", on: "visit", columns: ["user", "departed_at", "method"])
    }

    /// Who imported each place (`hotcold import`), for the `imported_places_per_user` quota: a
    /// user's imports cannot grow the shared catalogue without bound. Places that came with the
    /// bundled catalogue, a catalogue sync or before this version have no row and count for
    /// nobody; a place deleted takes its row with it.
    static func v5ImportedBy(_ db: Database) throws {
        try db.create(table: "place_import") { t in
            t.primaryKey("place_id", .text).references("place", onDelete: .cascade)
            t.column("user", .text).notNull().indexed()
        }
    }

    /// Friends (protocol 1.6): who each Unix user follows (and a version the bridge polls),
    /// the feed of finds stored once by (author, device, seq), the likes given here and the
    /// likes received for this car's own items. `feed_floor` remembers, per author device,
    /// the highest seq dropped by the 10,000-item cap, so a replay of a dropped item stays
    /// a repeat instead of coming back as new.
    static func v6Friends(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE follow (
                user TEXT NOT NULL, who TEXT NOT NULL, since DATETIME NOT NULL,
                PRIMARY KEY (user, who)) WITHOUT ROWID;
            CREATE INDEX follow_on_who ON follow(who);
            CREATE TABLE follow_version (
                id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL);
            INSERT INTO follow_version (id, version) VALUES (1, 0);
            CREATE TABLE feed_item (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                author TEXT NOT NULL, device TEXT NOT NULL, seq INTEGER NOT NULL,
                time DATETIME NOT NULL, kind TEXT NOT NULL CHECK (kind IN ('arrived', 'record')),
                place_id TEXT NOT NULL, place_name TEXT NOT NULL, place_kind TEXT NOT NULL,
                rating INTEGER CHECK (rating BETWEEN 1 AND 5),
                note TEXT CHECK (length(note) <= 500),
                club BOOLEAN NOT NULL DEFAULT 0,
                received_at DATETIME NOT NULL,
                UNIQUE (author, device, seq));
            CREATE INDEX feed_item_on_time ON feed_item(time, id);
            CREATE TABLE feed_floor (
                author TEXT NOT NULL, device TEXT NOT NULL, seq INTEGER NOT NULL,
                PRIMARY KEY (author, device)) WITHOUT ROWID;
            CREATE TABLE feed_like (
                user TEXT NOT NULL,
                item_id INTEGER NOT NULL REFERENCES feed_item(id) ON DELETE CASCADE,
                time DATETIME NOT NULL,
                PRIMARY KEY (user, item_id)) WITHOUT ROWID;
            CREATE INDEX feed_like_on_item ON feed_like(item_id);
            CREATE TABLE feed_like_received (
                item_seq INTEGER NOT NULL, liker TEXT NOT NULL, liked BOOLEAN NOT NULL, time DATETIME NOT NULL,
                PRIMARY KEY (item_seq, liker)) WITHOUT ROWID;
            """)
    }

    /// A shared rating may be 0 stars (the lowest, as `rate` allows), so `feed_item.rating`'s
    /// CHECK widens to 0–5. SQLite cannot alter a CHECK: the table is rebuilt and renamed into
    /// place (GRDB runs migrations with foreign keys off and checks them at the end, so
    /// `feed_like`'s rows keep pointing at the same ids; the id counter carries over, so an
    /// evicted item's id is never reused).
    static func v7FeedZeroStars(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE feed_item_v7 (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                author TEXT NOT NULL, device TEXT NOT NULL, seq INTEGER NOT NULL,
                time DATETIME NOT NULL, kind TEXT NOT NULL CHECK (kind IN ('arrived', 'record')),
                place_id TEXT NOT NULL, place_name TEXT NOT NULL, place_kind TEXT NOT NULL,
                rating INTEGER CHECK (rating BETWEEN 0 AND 5),
                note TEXT CHECK (length(note) <= 500),
                club BOOLEAN NOT NULL DEFAULT 0,
                received_at DATETIME NOT NULL,
                UNIQUE (author, device, seq));
            INSERT INTO feed_item_v7 SELECT id, author, device, seq, time, kind, place_id, place_name,
                place_kind, rating, note, club, received_at FROM feed_item;
            DELETE FROM sqlite_sequence WHERE name = 'feed_item_v7';
            INSERT INTO sqlite_sequence (name, seq) SELECT 'feed_item_v7', seq FROM sqlite_sequence WHERE name = 'feed_item';
            DROP TABLE feed_item;
            ALTER TABLE feed_item_v7 RENAME TO feed_item;
            CREATE INDEX feed_item_on_time ON feed_item(time, id);
            """)
    }

    /// This car's own record items (a user's rating or note) belong to that user: `owner` holds
    /// the user's name, and `feed` lists such an item to its owner and the administrator only.
    /// Items stored before have no owner and nothing says whose they were: they stay listed to
    /// the administrator alone (arrivals, the car's and not a user's, stay everyone's). The
    /// index finds the item a person's newer record of the same place replaces.
    static func v8FeedOwner(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE feed_item ADD COLUMN owner TEXT;
            CREATE INDEX feed_item_on_place ON feed_item(author, device, place_id, kind);
            """)
    }

    /// A submission's photo kept in a file of the daemon's own beside the database while the
    /// item waits (`photo_file`, its length, and where its base64 goes in the payload), instead
    /// of 13.4 MiB of base64 per 10 MiB photo in the row; and the submitter's idempotency key
    /// (`submit_key`), unique per user, so a `submit` sent again after a lost reply is the same
    /// submission. Items queued before keep their photo inline: they are sent as they are.
    static func v9OutboxPhotoFiles(_ db: Database) throws {
        try db.alter(table: "outbox") { t in
            t.add(column: "photo_file", .text)
            t.add(column: "photo_bytes", .integer)
            t.add(column: "photo_at", .integer)
            t.add(column: "submit_key", .text)
        }
        try db.execute(sql: """
            CREATE UNIQUE INDEX outbox_submit_key ON outbox(user, submit_key) WHERE submit_key IS NOT NULL
            """)
    }
}

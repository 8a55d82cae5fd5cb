/// The wire protocol's version, sent in the `VERSION` greeting. Minor bumps add fields or
/// commands; major bumps change or remove them.
///
/// Minor 1 added typed `ERROR` codes, the store reads (`search`, `place`, `near`, `visits`,
/// `observations`, `outbox`, `export`/`download`) and the uploads (`upload`/`chunk`, `import`,
/// `submit`), so that every `hotcold` command can go through the daemon. Minor 2 added `seq`
/// on every event, `watch` with `since` (`replay`, `since_gap`), `visits` and `sequence` in
/// `STATUS`, and `at` in `POLL`. Minor 3 added `report` (companion services' state, shown in
/// `STATUS` `services`), the `store` `delete` operation, `seq` on `QUEUED`, and `track_deg` and
/// `satellites` in `STATUS` `last_fix`. Minor 4 added the tier ladder (`tiers`) to `STATUS`
/// `tracking`. Minor 5 added `targets` (the tracked targets a page at a time), `targets_more` and
/// `database_error` in `STATUS` (which lists at most ``Limits/statusTargets`` targets, nearest
/// first), and `TARGETS`. Minor 6 added friends: `follow`, `unfollow`, `following`, `friend_fix`,
/// `feed_item`, `feed`, `like`, `unlike`, `like_received`; events `FEED`, `LIKE`, `RECORD`,
/// `FOLLOWING_CHANGED`; target kind `friend`; `friends` in `STATUS`. Minor 7 made `sync` an
/// ordinary command (its fields read like every command's, ISO-8601 times, the catalogue sent
/// as an `upload` of purpose `catalogue`); its one client, `hotcold-sync`, ships with the daemon.
/// Minor 8 added `age_s` and `clock_offset_s` to `STATUS` `last_fix` (ages on the daemon's
/// monotonic clock), `unclean_stop` and `log.syncs` to `STATUS`, and `since_gap` across a
/// `GAP` line in the replayed range. Minor 9 added the live `FIX` class (each accepted fix, to
/// watchers naming it; unnumbered, never logged), the `LIKE_RECEIVED` event, `lat`/`lon` (the
/// target's own position) on `STATUS` and `TARGETS` targets, `report`'s `device` (the car's name
/// on the broker) and `own` on `feed` entries, whose ids are then that name's. Minor 10 added
/// `act_for` (a trusted proxy, `hotcold-web`, acts for the user who paired a phone) and `ACTING`,
/// 0-star ratings in `RECORD` and feed items, and `feed` (dropped items) in `STATUS`. Minor 11
/// (the broker's side) renamed the bridges' like message `FRIEND_LIKE` (read under both names,
/// written under the new one to a friend whose `…/location`, which now carries `proto_major`
/// and `proto_minor`, says it reads it). Minor 12 added `gone` (why a place is gone) on `near`
/// rows, on `STATUS` and `TARGETS` targets and in `TRACKING` for a hunt; a record is one feed
/// item per place and person (a newer one replaces it), listed to its own user only. Minor 13
/// added `submit`'s `key` (a sender's idempotency key: the same key again is the same
/// submission), takes a photo only as one of the image types whose content the daemon checks
/// against its first bytes, and keeps a waiting photo in a file of its own: `sync`'s `payload`
/// gives the body as sent, the photo's base64 inside.
public enum ProtocolVersion {
    public static let release = "0.2.0"
    public static let major = 1
    public static let minor = 13

    /// The greeting as a reply value.
    public static var reply: VersionReply {
        VersionReply(release: release, protoMajor: major, protoMinor: minor)
    }

    /// The greeting as one line.
    public static var greeting: String { WireCoding.line(reply) }
}

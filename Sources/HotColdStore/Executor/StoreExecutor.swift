import Foundation
import HotColdCore
import HotColdProtocol

/// What a store request needs from whoever carried it, beyond the database: the files it
/// names (an upload to import or attach, a download to hold an export) and, for `near`,
/// where the receiver is. The daemon answers from its staging directory and its engine; the
/// client's `--db` path from memory, with no receiver.
public protocol StoreRequestContext {
    /// The receiver's last fix, for a `near` without `lat`/`lon`; nil when none is known.
    var lastFix: Coordinate? { get }
    /// The friends on the radar, for `near` with kind `friend`.
    func friendsOnRadar() -> [FriendRadar.FriendState]
    /// A completed upload's bytes (taken: a second `take` of the same id fails).
    func takeUpload(_ id: String, purpose: UploadRequest.Purpose, command: String) throws -> Data
    /// Holds what `produce` writes as a download; its id and size.
    func stageDownload(_ produce: (_ write: (Data) throws -> Void) throws -> Void) throws -> (id: String, size: Int)
    /// A completed `photo` upload, taken to be queued with a submission: its bytes, or (the
    /// daemon) a file of its photo directory it was moved to; and its first
    /// `PhotoContent.headLength` bytes, which say what it is.
    func keepPhoto(_ id: String, command: String) throws -> (content: SubmissionPhoto.Content, head: [UInt8])
    /// A kept photo that was not queued after all (refused, or its submission already stored).
    func discardPhoto(_ content: SubmissionPhoto.Content)
}

extension StoreRequestContext {
    /// In memory: the upload's bytes.
    public func keepPhoto(_ id: String, command: String) throws -> (content: SubmissionPhoto.Content, head: [UInt8]) {
        let data = try takeUpload(id, purpose: .photo, command: command)
        return (.bytes(data), Array(data.prefix(PhotoContent.headLength)))
    }

    public func discardPhoto(_ content: SubmissionPhoto.Content) {}
}

/// The one place a store request becomes a reply: the daemon answers its socket's store
/// commands here, and `hotcold --db` calls it in process, so a client command is written once
/// against the protocol's requests and replies whichever way they travel.
///
/// Replies carry the protocol's payloads (``VisitPayload``, ``PlacePayload``, …), never the
/// store's rows: the mapping is ``StoreRows+Payloads``.
///
/// Takes a decoded ``Request`` of the store family (`store`, `search`, `place`, `near`,
/// `visits`, `observations`, `outbox`, `export`, `import`, `submit`) and the acting user, and
/// returns the reply's line, exactly the bytes the socket sends. The daemon answers the rest
/// itself (the session, tracking, friends, `sync`).
public struct StoreExecutor: Sendable {
    public let store: Store

    public init(store: Store) { self.store = store }

    /// The reply line to `request`, made for `user`. `seesEveryone` (the daemon's
    /// administrator, or the owner of a database file) lists every user's personal records
    /// (observations, the outbox) instead of the user's own.
    public func reply(to request: Request, user: String, seesEveryone: Bool,
                      context: some StoreRequestContext) throws -> String {
        let owner = seesEveryone ? nil : user
        switch request {
        case .store(let r): return try change(r, user: user)
        case .search(let r):
            let page = try store.search(r, user: user)
            return WireCoding.line(ResultReply(.places, result: page.rows.map(\.payload), more: page.more))
        case .place(let r):
            guard let detail = try store.place(id: r.id) else {
                throw ProtocolError(.notFound, command: "place", field: "id", "no place \"\(r.id)\"")
            }
            let mine = try store.userState(placeID: r.id, user: user)
            return WireCoding.line(ResultReply(.place, result: PlaceViewPayload(detail: detail.payload, mine: mine.payload)))
        case .near(let r): return try near(r, context: context)
        case .visits: return WireCoding.line(ResultReply(.visits, result: try store.visits(user: user).map(\.payload)))
        case .observations: return WireCoding.line(ResultReply(.observations, result: try store.observations(user: owner).map(\.payload)))
        case .outbox: return WireCoding.line(ResultReply(.outbox, result: try store.outbox(user: owner).map(OutboxEntry.init)))
        case .export(let r):
            // Written a page at a time to the download, which `download` reads back.
            let staged = try context.stageDownload { write in
                try store.export(format: ExportFormat(rawValue: r.format) ?? .gpx, visits: r.visits, user: user, to: write)
            }
            return WireCoding.line(ExportReply(id: staged.id, format: r.format, size: staged.size))
        case .import(let r):
            let data = try context.takeUpload(r.upload, purpose: .import, command: "import")
            let report = try store.importData(data, file: r.name, strict: r.strict, user: user)
            return WireCoding.line(ResultReply(.import, result: summary(of: report, context: context)))
        case .submit(let r): return try submit(r, user: user, context: context)
        default:
            throw ProtocolError(.internal, command: request.command.rawValue, "not a store request")
        }
    }

    /// A `store` operation's reply.
    func change(_ r: StoreRequest, user: String) throws -> String {
        let op = r.operation.name
        func reply<T: Codable & Sendable>(_ v: T) -> String { WireCoding.line(ResultReply(.store, op: op, result: v)) }
        switch r.operation {
        case .seen(let id): return reply(try store.markSeen(placeID: id, user: user).payload)
        case .unseen(let id): return reply(try store.markUnseen(placeID: id, user: user))
        case .fav(let id), .unfav(let id):
            try store.setFavourite(placeID: id, user: user, r.operation == .fav(id: id))
            return reply(true)
        case .rate(let id, let stars): return reply(try store.rate(placeID: id, user: user, stars: stars).payload)
        case .note(let id, let text): return reply(try store.setNote(placeID: id, user: user, text: text)?.payload)
        case .add(let name, let at): return reply(try store.addLocation(name: name, at: at, user: user).payload)
        case .rename(let id, let name): return reply(try store.renameLocation(placeID: id, to: name, by: user).payload)
        case .delete(let id): return reply(try store.deleteLocation(placeID: id, by: user).payload)
        case .observe(let o):
            // The request decoder allows only known classifications.
            let cls = ObservationClassification(rawValue: o.classification) ?? .bird
            return reply(try store.addObservation(classification: cls, title: o.title, description: o.description,
                                                  date: o.date, coordinate: o.at, user: user).payload)
        case .amend(let a):
            return reply(try store.amendObservation(id: a.id, classification: a.classification.flatMap(ObservationClassification.init(rawValue:)),
                                                    title: a.title, description: a.description, by: user).payload)
        case .unobserve(let id): return reply(try store.deleteObservation(id: id, by: user).payload)
        }
    }

    /// The places nearest the point asked (else the receiver's last fix); with kind `friend`,
    /// the friends on the radar too (their distance from the receiver's own fix, as the radar
    /// measures it), merged nearest first.
    func near(_ r: NearRequest, context: some StoreRequestContext) throws -> String {
        guard let origin = r.at ?? context.lastFix else {
            throw ProtocolError(.badField, command: "near", field: "lat", "missing, and the daemon has no fix yet")
        }
        let placeKinds = r.kinds.map { $0.filter { $0 != TargetKind.friend.rawValue } }
        var rows: [NearbyPlace] = []
        if placeKinds.map({ !$0.isEmpty }) ?? true {
            let found = try store.nearest(to: origin, k: r.limit,
                                          filter: TargetFilter(kinds: placeKinds.map { Set($0.map { TargetKind($0) }) }, includeInactive: true))
            // A place that is gone is listed (it is near), saying so: never an unmarked target.
            let gone = try store.goneReasons(ids: found.map(\.target.id))
            rows = found.map { n in
                NearbyPlace(target: n.target.ref, lat: n.target.coordinate.latitude, lon: n.target.coordinate.longitude,
                            distanceM: n.distance, bearingDeg: origin.bearing(to: n.target.coordinate), gone: gone[n.target.id])
            }
        }
        if r.kinds?.contains(TargetKind.friend.rawValue) == true {
            rows += context.friendsOnRadar().compactMap { f in
                guard let d = f.distance, let b = f.bearing, let at = f.position else { return nil }
                return NearbyPlace(target: f.target, lat: at.latitude, lon: at.longitude, distanceM: d, bearingDeg: b)
            }
            rows = Array(rows.sorted { ($0.distanceM, $0.target.id) < ($1.distanceM, $1.target.id) }.prefix(r.limit))
        }
        return WireCoding.line(ResultReply(.near, result: rows))
    }

    /// What the `import` reply carries: at most `Limits.reportIssues` skipped rows and
    /// warnings, so a file of 100,000 bad rows cannot outgrow a client's queue; when some were
    /// cut, the whole report waits as a download named in `details`. A download that cannot
    /// be held only leaves the details out: the import is committed.
    func summary(of report: ImportReport, context: some StoreRequestContext) -> ImportReportPayload {
        var summary = report.summarised(maxIssues: Limits.reportIssues)
        if summary != report {
            summary.details = try? context.stageDownload { write in try write(WireCoding.encoder().encode(report.payload)) }.id
        }
        return summary.payload
    }

    /// A submission, queued with its photo. With a `key` this user queued a submission under
    /// already, that one is the reply and nothing is stored (its photo upload, if named, is
    /// left to be deleted with the connection). The photo's first bytes must be the type it is
    /// declared as (``PhotoContent``): a program or a web page named `image/jpeg` is refused
    /// here, before anything is queued for the web API.
    func submit(_ r: SubmitRequest, user: String, context: some StoreRequestContext) throws -> String {
        func reply(_ s: Submission) -> String { WireCoding.line(ResultReply(.submit, result: s.payload)) }
        if let key = r.key, let earlier = try store.submission(key: key, user: user) { return reply(earlier) }
        var photo: SubmissionPhoto?
        if let p = r.photo {
            let kept = try context.keepPhoto(p.upload, command: "submit")
            if let refusal = PhotoContent.refusal(head: kept.head, declared: p.contentType) {
                context.discardPhoto(kept.content)
                throw ProtocolError(.badField, command: "submit", field: "content_type", refusal)
            }
            photo = SubmissionPhoto(filename: p.filename, contentType: p.contentType, content: kept.content)
        }
        do {
            let s = try Submission(user: user, name: r.name, latitude: r.at?.latitude, longitude: r.at?.longitude,
                                   address: r.address, seenAt: r.seenAt, submittedBy: r.by, photoPath: r.photo?.filename)
            let stored = try store.submit(s, photo: photo, key: r.key)
            if !stored.queued, let photo { context.discardPhoto(photo.content) }
            return reply(stored.submission)
        } catch {
            if let photo { context.discardPhoto(photo.content) }
            throw error
        }
    }

    /// A store failure as the client's error: the store's own errors carry their code
    /// (``CodedError``), a database locked by another program is `busy`, anything else
    /// (SQLite) `internal`.
    public static func protocolError(_ error: any Error, command: String) -> ProtocolError {
        switch error {
        case let e as ProtocolError: return e
        case let e as any CodedError: return ProtocolError(e.code, command: command, field: e.field, "\(e)")
        case let e where Store.isBusy(e):
            return ProtocolError(.busy, command: command,
                                 "the database is locked by another program (waited \(Int(StoreDatabase.busyTimeout)) s); try again later")
        default: return ProtocolError(.internal, command: command, "\(error)")
        }
    }
}

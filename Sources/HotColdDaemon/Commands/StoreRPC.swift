import Foundation
import HotColdCore
import HotColdProtocol
import HotColdStore

/// The store behind the socket: per-user changes (`store`), the reads every `hotcold` command
/// needs (`search`, `place`, `near`, `visits`, `observations`, `outbox`, `export`) and the
/// uploads (`import`, `submit`), made by the daemon, the database's one writer, on behalf of
/// the client's Unix user.
///
/// Each answer is one line whose `result` is the store's own Codable value, so the client
/// decodes the same type the offline `--db` path returns. Runs off the socket's loop thread.
struct StoreRPC {
    let store: Store

    /// The reply to a `store` operation.
    func change(_ r: StoreRequest, user: String) throws -> String {
        let op = r.operation.name
        func reply<T: Codable & Sendable>(_ v: T) -> String { WireCoding.line(ResultReply(.store, op: op, result: v)) }
        switch r.operation {
        case .seen(let id): return reply(try store.markSeen(placeID: id, user: user))
        case .unseen(let id): return reply(try store.markUnseen(placeID: id, user: user))
        case .fav(let id):
            try store.setFavourite(placeID: id, user: user, true)
            return reply(true)
        case .unfav(let id):
            try store.setFavourite(placeID: id, user: user, false)
            return reply(true)
        case .rate(let id, let stars): return reply(try store.rate(placeID: id, user: user, stars: stars))
        case .note(let id, let text): return reply(try store.setNote(placeID: id, user: user, text: text))
        case .add(let name, let at): return reply(try store.addLocation(name: name, at: at, user: user))
        case .rename(let id, let name): return reply(try store.renameLocation(placeID: id, to: name, by: user))
        case .delete(let id): return reply(try store.deleteLocation(placeID: id, by: user))
        case .observe(let o):
            // The request decoder allows only known classifications.
            let cls = ObservationClassification(rawValue: o.classification) ?? .bird
            return reply(try store.addObservation(classification: cls, title: o.title, description: o.description,
                                                  date: o.date, coordinate: o.at, user: user))
        }
    }

    func search(_ r: SearchRequest, user: String) throws -> String {
        let page = try store.search(r, user: user)
        return WireCoding.line(ResultReply(.places, result: page.rows, more: page.more))
    }

    func place(_ r: PlaceRequest, user: String) throws -> String {
        guard let detail = try store.place(id: r.id) else {
            throw ProtocolError(.notFound, command: "place", field: "id", "no place \"\(r.id)\"")
        }
        let mine = try store.userState(placeID: r.id, user: user)
        return WireCoding.line(ResultReply(.place, result: PlaceView(detail: detail, mine: mine)))
    }

    /// The places nearest `origin`; with kind `friend`, the friends on the radar too (their
    /// distance from the daemon's own fix, as the radar measures it), merged nearest first.
    func near(_ r: NearRequest, from origin: Coordinate, friends: [FriendRadar.FriendState] = []) throws -> String {
        let placeKinds = r.kinds.map { $0.filter { $0 != TargetKind.friend.rawValue } }
        var rows: [NearbyPlace] = []
        if placeKinds.map({ !$0.isEmpty }) ?? true {
            let found = try store.nearest(to: origin, k: r.limit,
                                          filter: TargetFilter(kinds: placeKinds.map { Set($0.map { TargetKind($0) }) }, includeInactive: true))
            rows = found.map { n in
                NearbyPlace(target: n.target.ref, lat: n.target.coordinate.latitude, lon: n.target.coordinate.longitude,
                            distanceM: n.distance, bearingDeg: origin.bearing(to: n.target.coordinate))
            }
        }
        if r.kinds?.contains(TargetKind.friend.rawValue) == true {
            rows += friends.compactMap { f in
                guard let d = f.distance, let b = f.bearing, let at = f.position else { return nil }
                return NearbyPlace(target: f.target, lat: at.latitude, lon: at.longitude, distanceM: d, bearingDeg: b)
            }
            rows = Array(rows.sorted { ($0.distanceM, $0.target.id) < ($1.distanceM, $1.target.id) }.prefix(r.limit))
        }
        return WireCoding.line(ResultReply(.near, result: rows))
    }

    func visits(user: String) throws -> String {
        WireCoding.line(ResultReply(.visits, result: try store.visits(user: user)))
    }

    /// Personal records go to their owner only; `user` nil (the daemon's administrator) sees
    /// everyone's.
    func observations(user: String?) throws -> String {
        WireCoding.line(ResultReply(.observations, result: try store.observations(user: user)))
    }

    func outbox(user: String?) throws -> String {
        WireCoding.line(ResultReply(.outbox, result: try store.outbox(user: user).map(OutboxEntry.init)))
    }

    func export(_ r: ExportRequest, user: String, to write: (Data) throws -> Void) throws {
        try store.export(format: ExportFormat(rawValue: r.format) ?? .gpx, visits: r.visits, user: user, to: write)
    }

    /// The import's full report (the reply sends a summary of it: `DaemonCommands`).
    func importData(_ data: Data, _ r: ImportRequest, user: String) throws -> ImportReport {
        try store.importData(data, file: r.name, strict: r.strict, user: user)
    }

    func submit(_ r: SubmitRequest, photo: Data?, user: String) throws -> String {
        let s = try Submission(user: user, name: r.name, latitude: r.at?.latitude, longitude: r.at?.longitude,
                               address: r.address, seenAt: r.seenAt, submittedBy: r.by, photoPath: r.photo?.filename)
        let picture = zip(r.photo, photo).map { SubmissionPhoto(filename: $0.filename, contentType: $0.contentType, data: $1) }
        return WireCoding.line(ResultReply(.submit, result: try store.submit(s, photo: picture)))
    }

    /// A store failure as the client's error: the store's own errors carry their code
    /// (``CodedError``), a database locked by another program is `busy`, anything else (SQLite) `internal`.
    static func protocolError(_ error: any Error, command: String) -> ProtocolError {
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

private func zip<A, B>(_ a: A?, _ b: B?) -> (A, B)? {
    guard let a, let b else { return nil }
    return (a, b)
}

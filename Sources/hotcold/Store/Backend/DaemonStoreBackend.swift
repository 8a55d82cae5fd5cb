import Foundation
import HotColdCore
import HotColdProtocol
import HotColdStore

/// Used while hotcoldd runs: every read and change goes through its socket, so a member of the
/// socket's group can use every command on an installed system, where only the daemon can read
/// its database. The daemon records changes for this client's Unix user (SO_PEERCRED); files
/// (imports, photos) travel as chunked uploads and exports as chunked downloads. `--here`
/// takes the daemon's last fix.
struct DaemonStoreBackend: StoreBackend {
    let connection: LineClient

    /// Whose changes these are, as the daemon records them (it decides from the peer's uid).
    var user: String { CurrentUser.name }

    init(connection: LineClient) {
        self.connection = connection
    }

    /// Asked only when a command needs it (`--here`): the daemon's `status`, for its last fix.
    func currentPosition() throws -> Coordinate? {
        try DaemonLink.run { () throws(ClientError) in try connection.call(.status, expecting: StatusReply.self) }
            .gps.lastFix?.coordinate
    }

    private func call<T: Codable & Sendable>(_ request: Request, _ cls: ResultClass, as type: T.Type) throws -> T {
        try DaemonLink.run { () throws(ClientError) in
            try connection.call(request, result: cls, as: T.self)
        }
    }

    private func store<T: Codable & Sendable>(_ op: StoreRequest.Operation, as type: T.Type) throws -> T {
        try call(.store(StoreRequest(op)), .store, as: T.self)
    }

    // MARK: - Reads

    func searchPage(_ query: SearchRequest) throws -> (rows: [PlaceSummary], more: Bool) {
        let page = try DaemonLink.run { () throws(ClientError) in
            try connection.send(.search(query))
            return try connection.result(.places, as: [PlaceSummary].self)
        }
        return (page.result, page.more == true)
    }

    /// The place and this user's state on it; nil when the daemon has no such place.
    private func placeView(id: String) throws -> PlaceView<PlaceDetail, UserPlaceState>? {
        try DaemonLink.run { () throws(ClientError) in
            do throws(ClientError) {
                return try connection.call(.place(PlaceRequest(id: id)), result: .place,
                                           as: PlaceView<PlaceDetail, UserPlaceState>.self)
            } catch {
                if case .refused(let e) = error, e.code == .notFound { return nil }
                throw error
            }
        }
    }

    func place(id: String) throws -> PlaceDetail? { try placeView(id: id)?.detail }
    func userState(placeID: String) throws -> UserPlaceState {
        guard let view = try placeView(id: placeID) else { throw CLIError("no place \"\(placeID)\"") }
        return view.mine
    }

    func nearest(to point: Coordinate, k: Int, kinds: Set<TargetKind>?) throws -> [Neighbour] {
        let request = NearRequest(at: point, kinds: kinds.map { $0.map(\.rawValue).sorted() },
                                  limit: min(max(1, k), Limits.resultRows))
        return try call(.near(request), .near, as: [NearbyPlace].self).map { n in
            Neighbour(target: Target(id: n.target.id, name: n.target.name, kind: n.target.kind,
                                     coordinate: Coordinate(latitude: n.lat, longitude: n.lon)),
                      distance: n.distanceM)
        }
    }

    func visits() throws -> [VisitRecord] { try call(.visits, .visits, as: [VisitRecord].self) }
    func observations() throws -> [Observation] { try call(.observations, .observations, as: [Observation].self) }
    func outbox() throws -> [OutboxEntry] { try call(.outbox, .outbox, as: [OutboxEntry].self) }

    func export(format: ExportFormat, visits: Bool) throws -> Data {
        try DaemonLink.run { () throws(ClientError) in
            let ready = try connection.call(.export(ExportRequest(format: format.rawValue, visits: visits)),
                                            expecting: ExportReply.self)
            let progress = ProgressLine("export")
            defer { progress.finish() }
            return try connection.download(id: ready.id, size: ready.size) { received in
                progress.update(done: received, of: ready.size, verb: "downloaded")
            }
        }
    }

    // MARK: - Files: uploaded in chunks, stored by the daemon all-or-nothing

    func importFile(at url: URL, strict: Bool) throws -> ImportReport {
        let data = try ImportableFile.contents(of: url, what: "import file")
        let progress = ProgressLine("import \(url.lastPathComponent)")
        defer { progress.finish() }
        return try DaemonLink.run { () throws(ClientError) in
            let id = try connection.upload(data, purpose: .import) { sent in
                progress.update(done: sent, of: data.count, verb: "uploaded")
            }
            progress.phase("importing…")
            return try connection.call(.import(ImportRequest(upload: id, name: url.lastPathComponent, strict: strict)),
                                       result: .import, as: ImportReport.self)
        }
    }

    func submit(_ submission: Submission, photo: SubmissionPhoto?) throws -> Submission {
        if let photo, photo.data.count > Limits.photoBytes {
            throw CLIError("photo \(photo.filename): \(photo.data.count) bytes is over the \(Limits.photoBytes / 1_048_576) MiB limit")
        }
        let at = submission.latitude.flatMap { lat in
            submission.longitude.map { Coordinate(latitude: lat, longitude: $0) }
        }
        return try DaemonLink.run { () throws(ClientError) in
            var attached: SubmitRequest.Photo?
            if let photo {
                let id = try connection.upload(photo.data, purpose: .photo)
                attached = .init(upload: id, filename: photo.filename, contentType: photo.contentType)
            }
            let request = SubmitRequest(name: submission.name, at: at, address: submission.address,
                                        by: submission.submittedBy, seenAt: submission.seenAt, photo: attached)
            return try connection.call(.submit(request), result: .submit, as: Submission.self)
        }
    }

    // MARK: - Changes

    func markSeen(placeID: String) throws -> Visit { try store(.seen(id: placeID), as: Visit.self) }
    func markUnseen(placeID: String) throws -> Int { try store(.unseen(id: placeID), as: Int.self) }
    func setFavourite(placeID: String, _ favourite: Bool) throws {
        _ = try store(favourite ? .fav(id: placeID) : .unfav(id: placeID), as: Bool.self)
    }
    func rate(placeID: String, stars: Int) throws -> Rating { try store(.rate(id: placeID, stars: stars), as: Rating.self) }
    func setNote(placeID: String, text: String) throws -> Note? { try store(.note(id: placeID, text: text), as: Note?.self) }
    func addLocation(name: String, at c: Coordinate) throws -> Place { try store(.add(name: name, at: c), as: Place.self) }
    func renameLocation(placeID: String, to name: String) throws -> Place {
        try store(.rename(id: placeID, name: name), as: Place.self)
    }
    func deleteLocation(placeID: String) throws -> Place { try store(.delete(id: placeID), as: Place.self) }
    func addObservation(classification: ObservationClassification, title: String, description: String?,
                        date: Date, coordinate: Coordinate?) throws -> Observation {
        try store(.observe(.init(classification: classification.rawValue, title: title, description: description,
                                 date: date, at: coordinate)), as: Observation.self)
    }
}

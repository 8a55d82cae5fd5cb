import Foundation
import HotColdCore
import HotColdProtocol
import HotColdStore

/// How a store command's requests travel: over hotcoldd's socket (``DaemonStoreBackend``, the
/// installed case: only the daemon can read its database) or into the daemon's own
/// ``StoreExecutor`` in this process (``InProcessStoreBackend``, `--db`, offline). Either way
/// the answer is the reply line the daemon sends, so every command below is written once,
/// against the protocol's requests and replies.
protocol StoreBackend {
    /// Whose visits, favourites, ratings and notes these are.
    var user: String { get }
    /// The receiver's current position when a daemon knows it; nil offline.
    func currentPosition() throws -> Coordinate?
    /// Sends `request` and returns its reply line of class `replyClass`. A refusal (an
    /// `ERROR`) is thrown as `ClientError.refused`.
    func exchange(_ request: Request, replyClass: String) throws -> String
    /// Hands `data` over for a later request to name (`import`, `submit`); its upload id.
    func upload(_ data: Data, purpose: UploadRequest.Purpose, progress: ((Int) -> Void)?) throws -> String
    /// The bytes of a download an `export` (or an import's details) prepared.
    func download(id: String, size: Int, progress: ((Int) -> Void)?) throws -> Data
    /// A protocol failure in this transport's words (the daemon's refusal, or the store's own).
    func failure(_ error: ClientError) -> CLIError
}

extension StoreBackend {
    // MARK: - The exchange, decoded

    /// `request`'s reply of class `cls` with its result as `R`; failures as ``failure(_:)`` says.
    func call<R: Codable & Sendable>(_ request: Request, _ cls: ResultClass, as type: R.Type) throws -> ResultReply<R> {
        do { return try decoded(request, cls, as: R.self) } catch let e as ClientError { throw failure(e) }
    }

    /// As ``call(_:_:as:)``, with a refusal left as the protocol's error for the caller to read.
    private func decoded<R: Codable & Sendable>(_ request: Request, _ cls: ResultClass, as type: R.Type) throws -> ResultReply<R> {
        let line = try exchange(request, replyClass: cls.rawValue)
        do { return try WireCoding.decode(ResultReply<R>.self, class: cls.rawValue, from: line) } catch {
            throw ClientError.badReply(error)
        }
    }

    /// A `store` operation's result, as `R`.
    func store<R: Codable & Sendable>(_ op: StoreRequest.Operation, as type: R.Type) throws -> R {
        try call(.store(StoreRequest(op)), .store, as: R.self).result
    }

    // MARK: - Reads

    /// One page of a search (at most `Limits.resultRows`), and whether more follow.
    func searchPage(_ query: SearchRequest) throws -> (rows: [PlaceSummaryPayload], more: Bool) {
        let page = try call(.search(query), .places, as: [PlaceSummaryPayload].self)
        return (page.result, page.more == true)
    }

    /// Every place a search matches, a page at a time.
    func search(_ query: SearchRequest) throws -> [PlaceSummaryPayload] {
        var out: [PlaceSummaryPayload] = []
        var page = query
        page.limit = Limits.resultRows
        while true {
            page.offset = out.count
            let got = try searchPage(page)
            out += got.rows
            if !got.more || got.rows.isEmpty { return out }
        }
    }

    /// The place and this user's state on it; nil when there is no such place.
    private func placeView(id: String) throws -> PlaceViewPayload? {
        do {
            return try decoded(.place(PlaceRequest(id: id)), .place, as: PlaceViewPayload.self).result
        } catch let e as ClientError {
            if case .refused(let p) = e, p.code == .notFound { return nil }
            throw failure(e)
        }
    }

    func place(id: String) throws -> PlaceDetailPayload? { try placeView(id: id)?.detail }

    func userState(placeID: String) throws -> UserPlaceStatePayload {
        guard let view = try placeView(id: placeID) else { throw CLIError("no place \"\(placeID)\"") }
        return view.mine
    }

    /// The full id of the place `text` names (an id, or an unambiguous start of one: the store
    /// expands it), so a change is reported with the id it was made to. `text` unchanged when no
    /// place has it (the change itself then says so).
    func placeID(resolving text: String) throws -> String {
        try place(id: text)?.place.id ?? text
    }

    func nearest(to point: Coordinate, k: Int, kinds: Set<TargetKind>?) throws -> [NearbyPlace] {
        let request = NearRequest(at: point, kinds: kinds.map { $0.map(\.rawValue).sorted() },
                                  limit: min(max(1, k), Limits.resultRows))
        return try call(.near(request), .near, as: [NearbyPlace].self).result
    }

    func visits() throws -> [VisitRecordPayload] { try call(.visits, .visits, as: [VisitRecordPayload].self).result }
    func observations() throws -> [ObservationPayload] { try call(.observations, .observations, as: [ObservationPayload].self).result }
    /// What waits for the web API, what went, and what the server refused.
    func outbox() throws -> [OutboxEntry] { try call(.outbox, .outbox, as: [OutboxEntry].self).result }

    // MARK: - Files: uploaded, then stored all-or-nothing; exports prepared, then downloaded

    func export(format: ExportFormat, visits: Bool) throws -> Data {
        do {
            let line = try exchange(.export(ExportRequest(format: format.rawValue, visits: visits)), replyClass: ExportReply.wireClass)
            let ready: ExportReply
            do { ready = try WireCoding.decode(ExportReply.self, from: line) } catch { throw ClientError.badReply(error) }
            let progress = ProgressLine("export")
            defer { progress.finish() }
            return try download(id: ready.id, size: ready.size) { received in
                progress.update(done: received, of: ready.size, verb: "downloaded")
            }
        } catch let e as ClientError { throw failure(e) }
    }

    func importFile(at url: URL, strict: Bool) throws -> ImportReportPayload {
        let data = try ImportableFile.contents(of: url, what: "import file")
        let progress = ProgressLine("import \(url.lastPathComponent)")
        defer { progress.finish() }
        let id: String
        do {
            id = try upload(data, purpose: .import) { sent in progress.update(done: sent, of: data.count, verb: "uploaded") }
        } catch let e as ClientError { throw failure(e) }
        progress.phase("importing…")
        return try call(.import(ImportRequest(upload: id, name: url.lastPathComponent, strict: strict)), .import,
                        as: ImportReportPayload.self).result
    }

    /// Stores a new Big Thing and queues it for the web API, in one transaction.
    func submit(_ submission: Submission, photo: SubmissionPhoto?) throws -> SubmissionPayload {
        if let photo, photo.data.count > Limits.photoBytes {
            throw CLIError("photo \(photo.filename): \(photo.data.count) bytes is over the \(Limits.photoBytes / 1_048_576) MiB limit")
        }
        let at = submission.latitude.flatMap { lat in
            submission.longitude.map { Coordinate(latitude: lat, longitude: $0) }
        }
        var attached: SubmitRequest.Photo?
        if let photo {
            do {
                let id = try upload(photo.data, purpose: .photo, progress: nil)
                attached = .init(upload: id, filename: photo.filename, contentType: photo.contentType)
            } catch let e as ClientError { throw failure(e) }
        }
        let request = SubmitRequest(name: submission.name, at: at, address: submission.address,
                                    by: submission.submittedBy, seenAt: submission.seenAt, photo: attached)
        return try call(.submit(request), .submit, as: SubmissionPayload.self).result
    }

    // MARK: - Changes

    func markSeen(placeID: String) throws -> VisitPayload { try store(.seen(id: placeID), as: VisitPayload.self) }
    func markUnseen(placeID: String) throws -> Int { try store(.unseen(id: placeID), as: Int.self) }
    func setFavourite(placeID: String, _ favourite: Bool) throws {
        _ = try store(favourite ? .fav(id: placeID) : .unfav(id: placeID), as: Bool.self)
    }
    func rate(placeID: String, stars: Int) throws -> RatingPayload { try store(.rate(id: placeID, stars: stars), as: RatingPayload.self) }
    func setNote(placeID: String, text: String) throws -> NotePayload? { try store(.note(id: placeID, text: text), as: NotePayload?.self) }
    func addLocation(name: String, at c: Coordinate) throws -> PlacePayload { try store(.add(name: name, at: c), as: PlacePayload.self) }
    func renameLocation(placeID: String, to name: String) throws -> PlacePayload {
        try store(.rename(id: placeID, name: name), as: PlacePayload.self)
    }
    func deleteLocation(placeID: String) throws -> PlacePayload { try store(.delete(id: placeID), as: PlacePayload.self) }
    func addObservation(classification: ObservationClassification, title: String, description: String?,
                        date: Date, coordinate: Coordinate?) throws -> ObservationPayload {
        try store(.observe(.init(classification: classification.rawValue, title: title, description: description,
                                 date: date, at: coordinate)), as: ObservationPayload.self)
    }
}

import Foundation
import HotColdCore
import HotColdProtocol
import HotColdStore

/// Works on the database file itself, as the current Unix user (offline use and tests).
struct DirectStoreBackend: StoreBackend {
    let store: Store
    let user: String

    func currentPosition() throws -> Coordinate? { nil }

    func searchPage(_ query: SearchRequest) throws -> (rows: [PlaceSummary], more: Bool) { try store.search(query, user: user) }
    func place(id: String) throws -> PlaceDetail? { try store.place(id: id) }
    func userState(placeID: String) throws -> UserPlaceState { try store.userState(placeID: placeID, user: user) }
    func nearest(to point: Coordinate, k: Int, kinds: Set<TargetKind>?) throws -> [Neighbour] {
        try store.nearest(to: point, k: k, filter: TargetFilter(kinds: kinds, includeInactive: true))
    }
    func markSeen(placeID: String) throws -> Visit { try store.markSeen(placeID: placeID, user: user) }
    func markUnseen(placeID: String) throws -> Int { try store.markUnseen(placeID: placeID, user: user) }
    func setFavourite(placeID: String, _ favourite: Bool) throws {
        try store.setFavourite(placeID: placeID, user: user, favourite)
    }
    func rate(placeID: String, stars: Int) throws -> Rating { try store.rate(placeID: placeID, user: user, stars: stars) }
    func setNote(placeID: String, text: String) throws -> Note? { try store.setNote(placeID: placeID, user: user, text: text) }
    func visits() throws -> [VisitRecord] { try store.visits(user: user) }
    func addLocation(name: String, at c: Coordinate) throws -> Place { try store.addLocation(name: name, at: c, user: user) }
    func renameLocation(placeID: String, to name: String) throws -> Place { try store.renameLocation(placeID: placeID, to: name, by: user) }
    func deleteLocation(placeID: String) throws -> Place { try store.deleteLocation(placeID: placeID, by: user) }
    func addObservation(classification: ObservationClassification, title: String, description: String?,
                        date: Date, coordinate: Coordinate?) throws -> Observation {
        try store.addObservation(classification: classification, title: title, description: description,
                                 date: date, coordinate: coordinate, user: user)
    }
    func observations() throws -> [Observation] { try store.observations() }
    /// Read as the daemon's backend reads it (same checks, same words), then imported.
    func importFile(at url: URL, strict: Bool) throws -> ImportReport {
        let data = try ImportableFile.contents(of: url, what: "import file")
        let progress = ProgressLine("import \(url.lastPathComponent)")
        defer { progress.finish() }
        progress.phase("importing \(ProgressLine.bytes(data.count))…")
        return try store.importData(data, file: url.path, strict: strict, user: user)
    }
    func export(format: ExportFormat, visits: Bool) throws -> Data {
        try store.export(format: format, visits: visits, user: user)
    }
    func outbox() throws -> [OutboxEntry] { try store.outbox().map(OutboxEntry.init) }
    func submit(_ submission: Submission, photo: SubmissionPhoto?) throws -> Submission {
        try store.submit(submission, photo: photo)
    }
}

import Foundation
import HotColdCore
import HotColdProtocol
import HotColdStore

/// What the store commands need, whoever serves it: a running daemon over its socket (the
/// installed case: only the daemon can read its database) or a database file directly
/// (`--db`, offline). Commands only talk to this protocol.
protocol StoreBackend {
    /// Whose visits, favourites, ratings and notes these are.
    var user: String { get }
    /// The receiver's current position when a daemon knows it; nil offline.
    func currentPosition() throws -> Coordinate?

    /// One page of a search (at most `Limits.resultRows`), and whether more follow.
    func searchPage(_ query: SearchRequest) throws -> (rows: [PlaceSummary], more: Bool)
    func place(id: String) throws -> PlaceDetail?
    func userState(placeID: String) throws -> UserPlaceState
    func nearest(to point: Coordinate, k: Int, kinds: Set<TargetKind>?) throws -> [Neighbour]

    func markSeen(placeID: String) throws -> Visit
    func markUnseen(placeID: String) throws -> Int
    func setFavourite(placeID: String, _ favourite: Bool) throws
    func rate(placeID: String, stars: Int) throws -> Rating
    func setNote(placeID: String, text: String) throws -> Note?
    func visits() throws -> [VisitRecord]
    func addLocation(name: String, at: Coordinate) throws -> Place
    func renameLocation(placeID: String, to name: String) throws -> Place
    func deleteLocation(placeID: String) throws -> Place
    func addObservation(classification: ObservationClassification, title: String, description: String?,
                        date: Date, coordinate: Coordinate?) throws -> Observation
    func observations() throws -> [Observation]
    func importFile(at url: URL, strict: Bool) throws -> ImportReport
    func export(format: ExportFormat, visits: Bool) throws -> Data
    /// What waits for the web API, what went, and what the server refused.
    func outbox() throws -> [OutboxEntry]
    /// Stores a new Big Thing and queues it for the web API, in one transaction.
    func submit(_ submission: Submission, photo: SubmissionPhoto?) throws -> Submission
}

extension StoreBackend {
    /// Every place a search matches, a page at a time.
    func search(_ query: SearchRequest) throws -> [PlaceSummary] {
        var out: [PlaceSummary] = []
        var page = query
        page.limit = Limits.resultRows
        while true {
            page.offset = out.count
            let got = try searchPage(page)
            out += got.rows
            if !got.more || got.rows.isEmpty { return out }
        }
    }

    /// The full id of the place `text` names (an id, or an unambiguous start of one: the store
    /// expands it), so a change is reported with the id it was made to. `text` unchanged when no
    /// place has it (the change itself then says so).
    func placeID(resolving text: String) throws -> String {
        try place(id: text)?.place.id ?? text
    }
}

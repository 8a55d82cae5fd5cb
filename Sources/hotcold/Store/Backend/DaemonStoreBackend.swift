import Foundation
import HotColdCore
import HotColdProtocol
import HotColdStore

/// Used while hotcoldd runs: changes go through its socket (the daemon is the one writer and
/// records them for this client's Unix user), reads go to the database file it names, which
/// SQLite's WAL lets us read while it writes. `--here` takes the daemon's last fix.
struct DaemonStoreBackend: StoreBackend {
    let connection: LineClient
    let reader: DirectStoreBackend
    let status: StatusReply

    var user: String { reader.user }

    init(connection: LineClient) throws {
        self.connection = connection
        status = try DaemonLink.run { () throws(ClientError) in try connection.call(.status, expecting: StatusReply.self) }
        guard let db = status.database else {
            throw CLIError("hotcoldd at \(connection.path) has no database open (or does not let this user write); use --db PATH to work on a file")
        }
        guard FileManager.default.isReadableFile(atPath: db) else {
            throw CLIError("cannot read hotcoldd's database \(db) as this user; use --db PATH for a copy you can read")
        }
        reader = DirectStoreBackend(store: try Store.open(path: db), user: CurrentUser.name)
    }

    func currentPosition() throws -> Coordinate? {
        status.gps.lastFix?.coordinate
    }

    // Reads: straight from the file.
    func search(_ query: PlaceQuery) throws -> [PlaceSummary] { try reader.search(query) }
    func place(id: String) throws -> PlaceDetail? { try reader.place(id: id) }
    func userState(placeID: String) throws -> UserPlaceState { try reader.userState(placeID: placeID) }
    func nearest(to point: Coordinate, k: Int, kinds: Set<TargetKind>?) throws -> [Neighbour] {
        try reader.nearest(to: point, k: k, kinds: kinds)
    }
    func visits() throws -> [VisitRecord] { try reader.visits() }
    func observations() throws -> [Observation] { try reader.observations() }
    func export(format: ExportFormat, visits: Bool) throws -> Data { try reader.export(format: format, visits: visits) }
    // Imports are whole files the daemon may not be allowed to read; SQLite's locking keeps a
    // direct write safe beside the daemon's.
    func importFile(at url: URL, strict: Bool) throws -> ImportReport { try reader.importFile(at: url, strict: strict) }
    // Submissions may carry a photo far beyond the socket's 64 KiB line limit: written
    // directly too (with their outbox item, in one transaction).
    func submit(_ submission: Submission, photo: SubmissionPhoto?) throws -> Submission {
        try reader.submit(submission, photo: photo)
    }

    // Changes: through the daemon.
    private func call<T: Codable & Sendable>(_ op: StoreRequest.Operation, as type: T.Type) throws -> T {
        try DaemonLink.run { () throws(ClientError) in
            try connection.call(.store(StoreRequest(op)), result: .store, as: T.self)
        }
    }

    func markSeen(placeID: String) throws -> Visit { try call(.seen(id: placeID), as: Visit.self) }
    func markUnseen(placeID: String) throws -> Int { try call(.unseen(id: placeID), as: Int.self) }
    func setFavourite(placeID: String, _ favourite: Bool) throws {
        _ = try call(favourite ? .fav(id: placeID) : .unfav(id: placeID), as: Bool.self)
    }
    func rate(placeID: String, stars: Int) throws -> Rating { try call(.rate(id: placeID, stars: stars), as: Rating.self) }
    func setNote(placeID: String, text: String) throws -> Note? { try call(.note(id: placeID, text: text), as: Note?.self) }
    func addLocation(name: String, at c: Coordinate) throws -> Place { try call(.add(name: name, at: c), as: Place.self) }
    func renameLocation(placeID: String, to name: String) throws -> Place {
        try call(.rename(id: placeID, name: name), as: Place.self)
    }
    func addObservation(classification: ObservationClassification, title: String, description: String?,
                        date: Date, coordinate: Coordinate?) throws -> Observation {
        try call(.observe(.init(classification: classification.rawValue, title: title, description: description,
                                date: date, at: coordinate)), as: Observation.self)
    }
}

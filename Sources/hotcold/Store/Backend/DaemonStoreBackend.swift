import Foundation
import HotColdCore
import HotColdStore

/// Used while hotcoldd runs: changes go through its socket (the daemon is the one writer and
/// records them for this client's Unix user), reads go to the database file it names, which
/// SQLite's WAL lets us read while it writes. `--here` takes the daemon's last fix.
struct DaemonStoreBackend: StoreBackend {
    let connection: DaemonConnection
    let reader: DirectStoreBackend
    let status: [String: Any]

    var user: String { reader.user }

    init(connection: DaemonConnection) throws {
        self.connection = connection
        try connection.send(#"{"cmd":"status"}"#)
        let line = try connection.reply("STATUS")
        status = (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]) ?? [:]
        guard let db = status["database"] as? String else {
            throw CLIError("hotcoldd at \(connection.path) has no database open; use --db PATH to work on a file")
        }
        guard FileManager.default.isReadableFile(atPath: db) else {
            throw CLIError("cannot read hotcoldd's database \(db) as this user; use --db PATH for a copy you can read")
        }
        reader = DirectStoreBackend(store: try Store.open(path: db), user: CurrentUser.name)
    }

    func currentPosition() throws -> Coordinate? {
        guard let fix = (status["gps"] as? [String: Any])?["last_fix"] as? [String: Any],
              let lat = fix["lat"] as? Double, let lon = fix["lon"] as? Double else { return nil }
        return Coordinate(latitude: lat, longitude: lon)
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
    private func call<T: Decodable>(_ op: String, _ args: [String: Any], as type: T.Type) throws -> T {
        var request = args
        request["cmd"] = "store"
        request["op"] = op
        let data = try JSONSerialization.data(withJSONObject: request)
        try connection.send(String(decoding: data, as: UTF8.self))
        let line = try connection.reply("STORE")
        guard let obj = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
              let result = obj["result"] else {
            throw CLIError("hotcoldd sent a STORE reply without a result")
        }
        let raw = try JSONSerialization.data(withJSONObject: result, options: [.fragmentsAllowed])
        return try JSONDecoder().decode(T.self, from: raw)
    }

    func markSeen(placeID: String) throws -> Visit { try call("seen", ["id": placeID], as: Visit.self) }
    func markUnseen(placeID: String) throws -> Int { try call("unseen", ["id": placeID], as: Int.self) }
    func setFavourite(placeID: String, _ favourite: Bool) throws {
        _ = try call(favourite ? "fav" : "unfav", ["id": placeID], as: Bool.self)
    }
    func rate(placeID: String, stars: Int) throws -> Rating { try call("rate", ["id": placeID, "stars": stars], as: Rating.self) }
    func setNote(placeID: String, text: String) throws -> Note? { try call("note", ["id": placeID, "text": text], as: Note?.self) }
    func addLocation(name: String, at c: Coordinate) throws -> Place {
        try call("add", ["name": name, "lat": c.latitude, "lon": c.longitude], as: Place.self)
    }
    func renameLocation(placeID: String, to name: String) throws -> Place {
        try call("rename", ["id": placeID, "name": name], as: Place.self)
    }
    func addObservation(classification: ObservationClassification, title: String, description: String?,
                        date: Date, coordinate: Coordinate?) throws -> Observation {
        var args: [String: Any] = ["classification": classification.rawValue, "title": title, "date": ISO8601.format(date)]
        if let description { args["description"] = description }
        if let coordinate { args["lat"] = coordinate.latitude; args["lon"] = coordinate.longitude }
        return try call("observe", args, as: Observation.self)
    }
}

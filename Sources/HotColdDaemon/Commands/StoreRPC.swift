import Foundation
import HotColdCore
import HotColdStore

/// The `store` command: per-user changes (seen, favourite, rating, note, places, observations)
/// made by the daemon, the one writer while it runs, on behalf of the client's Unix user.
///
/// Requests name an `op` and its arguments; the reply is `{"class":"STORE","op":…,"result":…}`
/// where `result` is the store's own Codable value, so the client decodes the same type the
/// offline path returns.
struct StoreRPC {
    let store: Store

    struct Failure: Error { var message: String }

    func run(_ r: Request, user: String) throws -> String {
        guard let op = try r.string("op") else {
            throw Failure(message: "store: missing \"op\" (seen, unseen, fav, rate, note, add, rename, observe)")
        }
        func text(_ key: String) throws -> String {
            guard let v = try r.string(key), !v.isEmpty else { throw Failure(message: "store \(op): missing \"\(key)\"") }
            return v
        }
        func number(_ key: String) throws -> Double {
            guard let v = try r.number(key) else { throw Failure(message: "store \(op): missing number \"\(key)\"") }
            return v
        }
        let result: Data
        let enc = JSONEncoder()
        switch op {
        case "seen": result = try enc.encode(store.markSeen(placeID: text("id"), user: user))
        case "unseen": result = try enc.encode(store.markUnseen(placeID: text("id"), user: user))
        case "fav", "unfav":
            try store.setFavourite(placeID: text("id"), user: user, op == "fav")
            result = Data("true".utf8)
        case "rate":
            let stars = try number("stars")
            guard stars == stars.rounded(), (0...5).contains(stars) else {
                throw Failure(message: "store rate: stars must be a whole number 0–5, got \(stars)")
            }
            result = try enc.encode(store.rate(placeID: text("id"), user: user, stars: Int(stars)))
        case "note":
            let t = try r.string("text") ?? ""
            result = try enc.encode(store.setNote(placeID: text("id"), user: user, text: t))
        case "add":
            let c = Coordinate(latitude: try number("lat"), longitude: try number("lon"))
            guard c.isValid else { throw Failure(message: "store add: coordinate out of range") }
            result = try enc.encode(store.addLocation(name: text("name"), at: c, user: user))
        case "rename":
            result = try enc.encode(store.renameLocation(placeID: text("id"), to: text("name"), by: user))
        case "observe":
            guard let cls = ObservationClassification(rawValue: try text("classification").lowercased()) else {
                throw Failure(message: "store observe: unknown classification \"\((try? r.string("classification")) ?? "")\"")
            }
            guard let date = ISO8601.parse(try text("date")) else {
                throw Failure(message: "store observe: \"date\" must be an ISO-8601 time")
            }
            var c: Coordinate? = nil
            if r.has("lat") || r.has("lon") {
                c = Coordinate(latitude: try number("lat"), longitude: try number("lon"))
                guard c!.isValid else { throw Failure(message: "store observe: coordinate out of range") }
            }
            result = try enc.encode(store.addObservation(
                classification: cls, title: text("title"), description: r.string("description"),
                date: date, coordinate: c, user: user))
        default:
            throw Failure(message: "store: unknown op \"\(op)\" (seen, unseen, fav, unfav, rate, note, add, rename, observe)")
        }
        var o = JSONLine(class: "STORE")
        o.add("op", op)
        o.addRaw("result", json: String(decoding: result, as: UTF8.self))
        return o.text
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HotColdCore

/// `store`: one change to the client user's own data (visits, favourites, stars, notes,
/// custom locations, observations), made by the daemon, the database's one writer.
///
/// ```json
/// {"cmd":"store","op":"rate","id":"halans:d0577fb8cf","stars":4}
/// ```
public struct StoreRequest: RequestBody {
    public enum Operation: Sendable, Equatable {
        case seen(id: String)
        case unseen(id: String)
        case fav(id: String)
        case unfav(id: String)
        case rate(id: String, stars: Int)
        /// An empty text removes the note.
        case note(id: String, text: String)
        case add(name: String, at: Coordinate)
        case rename(id: String, name: String)
        /// Removes a custom location the user added (refused while others have records of it).
        case delete(id: String)
        case observe(Observe)
        /// Corrects one of the user's own observations: what it was, its kind, its notes.
        case amend(Amend)
        /// Removes one of the user's own observations.
        case unobserve(id: String)

        public var name: String {
            switch self {
            case .seen: "seen"
            case .unseen: "unseen"
            case .fav: "fav"
            case .unfav: "unfav"
            case .rate: "rate"
            case .note: "note"
            case .add: "add"
            case .rename: "rename"
            case .delete: "delete"
            case .observe: "observe"
            case .amend: "amend"
            case .unobserve: "unobserve"
            }
        }
    }

    /// A field observation.
    public struct Observe: Sendable, Equatable {
        static let classifications = ["amphibian", "bird", "fish", "insect", "mammal", "plant", "reptile"]
        public var classification: String
        public var title: String
        public var description: String?
        public var date: Date
        public var at: Coordinate?

        public init(classification: String, title: String, description: String? = nil, date: Date, at: Coordinate? = nil) {
            self.classification = classification
            self.title = title
            self.description = description
            self.date = date
            self.at = at
        }
    }

    /// A correction of an observation: only the fields given change (an empty `description`
    /// removes the notes); when and where it was seen stay as recorded.
    public struct Amend: Sendable, Equatable {
        public var id: String
        public var classification: String?
        public var title: String?
        public var description: String?

        public init(id: String, classification: String? = nil, title: String? = nil, description: String? = nil) {
            self.id = id
            self.classification = classification
            self.title = title
            self.description = description
        }
    }

    static let operations = ["seen", "unseen", "fav", "unfav", "rate", "note", "add", "rename", "delete", "observe",
                                    "amend", "unobserve"]

    public var operation: Operation

    public init(_ operation: Operation) { self.operation = operation }

    init(_ decoder: any Decoder) throws(ProtocolError) {
        let head = try Fields(decoder, command: "store",
                              allowed: ["op", "id", "stars", "text", "name", "lat", "lon", "classification", "title", "description", "date"])
        guard let op = try head.choice("op", Self.operations) else {
            throw ProtocolError(.badField, command: "store", field: "op", "missing (one of \(Self.operations.joined(separator: ", ")))")
        }
        let cmd = "store \(op)"
        func fields(_ allowed: Set<String>) throws(ProtocolError) -> Fields {
            try Fields(decoder, command: cmd, allowed: allowed.union(["op"]))
        }
        func id(_ f: Fields) throws(ProtocolError) -> String { try f.requiredString("id", max: Limits.idLength, what: "a place id") }
        switch op {
        case "seen": operation = .seen(id: try id(try fields(["id"])))
        case "unseen": operation = .unseen(id: try id(try fields(["id"])))
        case "fav": operation = .fav(id: try id(try fields(["id"])))
        case "unfav": operation = .unfav(id: try id(try fields(["id"])))
        case "delete": operation = .delete(id: try id(try fields(["id"])))
        case "rate":
            let f = try fields(["id", "stars"])
            operation = .rate(id: try id(f), stars: try f.required(try f.integer("stars", in: 0...5), "stars", "a whole number 0–5"))
        case "note":
            let f = try fields(["id", "text"])
            operation = .note(id: try id(f), text: try f.string("text", max: Limits.noteLength, allowEmpty: true) ?? "")
        case "add":
            let f = try fields(["name", "lat", "lon"])
            let name = try f.requiredString("name", max: Limits.nameLength, what: "the location's name")
            operation = .add(name: name, at: try f.required(try f.coordinate(), "lat", "lat and lon"))
        case "rename":
            let f = try fields(["id", "name"])
            operation = .rename(id: try id(f), name: try f.requiredString("name", max: Limits.nameLength, what: "the new name"))
        case "unobserve":
            let f = try fields(["id"])
            operation = .unobserve(id: try f.requiredString("id", max: Limits.idLength, what: "an observation id"))
        case "amend":
            let f = try fields(["id", "classification", "title", "description"])
            let a = Amend(id: try f.requiredString("id", max: Limits.idLength, what: "an observation id"),
                          classification: try f.choice("classification", Observe.classifications),
                          title: try f.string("title", max: Limits.nameLength),
                          description: try f.string("description", max: Limits.textLength, allowEmpty: true))
            guard a.classification != nil || a.title != nil || a.description != nil else {
                throw ProtocolError(.badField, command: cmd, field: "title", "nothing to change: give classification, title or description")
            }
            operation = .amend(a)
        default:
            let f = try fields(["classification", "title", "description", "date", "lat", "lon"])
            operation = .observe(Observe(
                classification: try f.required(try f.choice("classification", Observe.classifications), "classification",
                                               Observe.classifications.joined(separator: ", ")),
                title: try f.requiredString("title", max: Limits.nameLength, what: "what it was"),
                description: try f.string("description", max: Limits.textLength),
                date: try f.required(try f.time("date"), "date", "an ISO-8601 time"),
                at: try f.coordinate()))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var w = try FieldWriter(encoder, command: "store")
        try w.put("op", operation.name)
        switch operation {
        case .seen(let id), .unseen(let id), .fav(let id), .unfav(let id), .delete(let id), .unobserve(let id):
            try w.put("id", id)
        case .amend(let a):
            try w.put("id", a.id)
            try w.put("classification", a.classification)
            try w.put("title", a.title)
            try w.put("description", a.description)
        case .rate(let id, let stars):
            try w.put("id", id)
            try w.put("stars", stars)
        case .note(let id, let text):
            try w.put("id", id)
            try w.put("text", text)
        case .add(let name, let at):
            try w.put("name", name)
            try w.put("lat", at.latitude)
            try w.put("lon", at.longitude)
        case .rename(let id, let name):
            try w.put("id", id)
            try w.put("name", name)
        case .observe(let o):
            try w.put("classification", o.classification)
            try w.put("title", o.title)
            try w.put("description", o.description)
            try w.put("date", ISO8601.format(o.date))
            try w.put("lat", o.at?.latitude)
            try w.put("lon", o.at?.longitude)
        }
    }
}

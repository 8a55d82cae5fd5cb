import ArgumentParser
import Foundation
import HotColdCore
import HotColdProtocol
import HotColdStore

struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Everything about one place, with your visits, favourite, rating and note.",
        discussion: "Example: hotcold show GC2T9RW")

    @OptionGroup var options: StoreOptions
    @Argument(help: "The place id (a cache code, a Big Thing id such as halans:d0577fb8cf, ...).") var id: String

    /// `4`, `2.5`, `3.67`: never `Int(v)`, which traps on the 1e300 an old database may hold.
    func rating(_ v: Double) -> String { JSONLine.number(v, decimals: 2) }

    func run() throws {
        let backend = try options.backend()
        guard let d = try backend.place(id: id) else { throw StoreError.noSuchPlace(id) }
        let mine = try backend.userState(placeID: id)
        if options.json { return try Output.json(PlaceViewPayload(detail: d, mine: mine)) }
        let p = d.place
        print("\(p.name)  [\(p.kind)\(p.active ? "" : ", gone")]")
        print("id: \(p.id)")
        print("at: \(p.latitude),\(p.longitude)")
        if let b = d.bigThing {
            print("where: " + [b.location ?? b.town, b.state].compactMap { $0 }.joined(separator: ", "))
            if let y = b.year { print("year: \(y)") }
            if let s = b.status { print("status: \(s)") }
            if b.coordPrecision == "town" { print("note: the point is the town centre, not the object") }
            if let r = b.rating { print("catalogue rating: \(r)" + (b.votes.map { " (\($0) votes)" } ?? "")) }
            if !b.tags.isEmpty { print("tags: \(b.tags.joined(separator: ", "))") }
            if let u = b.photoUrl { print("photo: \(u)") }
            if let t = b.description { print("\n\(t)\n") }
        }
        if let g = d.geocache {
            print("\(g.cacheType ?? "cache"), \(g.container ?? "?") container, D\(g.difficulty.map(rating) ?? "?")/T\(g.terrain.map(rating) ?? "?")")
            if let o = g.owner { print("owner: \(o)") }
            if let u = g.url { print("link: \(u)") }
            if let lat = g.originalLatitude, let lon = g.originalLongitude { print("corrected coordinates (listed at \(lat),\(lon))") }
            print("status: \(g.archived ? "archived" : (g.available ? "available" : "disabled")), \(g.logsCount) logs")
            if let h = g.hint { print("hint: \(h)") }
            if let s = g.shortDescription ?? g.longDescription {
                let text = Output.plain(s)
                print("\n" + (text.count > 600 ? String(text.prefix(600)) + "…" : text) + "\n")
            }
            for w in d.waypoints { print("waypoint \(w.id): \(w.name) at \(w.latitude),\(w.longitude)") }
        }
        if let w = d.waypoint {
            print("waypoint of \(w.parentId)" + (w.waypointType.map { " (\($0))" } ?? ""))
            if let c = w.comment { print(c) }
        }
        if let l = d.location {
            print(l.origin == LocationOrigin.default.rawValue ? "default location (name read-only)" : "custom location")
        }
        print("— yours (\(mine.user)) —")
        print(mine.seen ? "seen \(mine.visits.count)×, last \(Output.mediumDate(mine.lastVisit!))" : "not seen yet")
        if mine.favourite { print("favourite") }
        if let r = mine.rating { print("rated \(Output.stars(r.stars)) on \(Output.mediumDate(r.ratedAt))") }
        if let n = mine.note { print("note: \(n.text)") }
    }
}

import ArgumentParser
import Foundation
import HotColdCore
import HotColdProtocol
import HotColdStore
import HotColdUnix

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
            if let u = g.url { print("link: \(TerminalText.safe(u))") }
            if let lat = g.originalLatitude, let lon = g.originalLongitude { print("corrected coordinates (listed at \(lat),\(lon))") }
            print("status: \(g.archived ? "archived" : (g.available ? "available" : "disabled")), \(g.logsCount) logs")
            if let h = g.hint { print("hint: \(TerminalText.safe(h))") }
            // The whole listing: the short description, then the long one (where a multi-cache's
            // stages are), as text in paragraphs — the listing's HTML is read, never shown raw.
            for text in [g.shortDescription, g.longDescription].compactMap({ $0 }) {
                let paragraphs = ListingText.paragraphs(text, html: g.descriptionIsHtml)
                if !paragraphs.isEmpty { print("\n" + paragraphs.map(TerminalText.safe).joined(separator: "\n\n")) }
            }
            if g.shortDescription != nil || g.longDescription != nil { print("") }
            // A waypoint (parking, a stage, the final) is one of the cache's stages, not a place of its own.
            for w in d.waypoints { print("stage \(w.id): \(TerminalText.safe(w.name)) at \(w.latitude),\(w.longitude)") }
        }
        if let w = d.waypoint {
            print("a stage of the cache \(w.parentId)" + (w.waypointType.map { " (\(TerminalText.safe($0)))" } ?? ""))
            if let c = w.comment { print(TerminalText.safe(c)) }
        }
        if let l = d.location {
            print(l.origin == LocationOrigin.default.rawValue ? "default location (name read-only)" : "custom location")
        }
        print("— yours (\(mine.user)) —")
        // A stage is rated, favourited and noted with its cache, not as a place of its own.
        if let w = d.waypoint, mine.rating == nil, mine.note == nil, !mine.favourite {
            print(mine.seen ? "been here \(mine.visits.count)×, last \(Output.mediumDate(mine.lastVisit!))" : "not been here yet")
            print("rate, favourite and note its cache: hotcold show \(w.parentId)")
            return
        }
        print(mine.seen ? "seen \(mine.visits.count)×, last \(Output.mediumDate(mine.lastVisit!))" : "not seen yet")
        if mine.favourite { print("favourite") }
        if let r = mine.rating { print("rated \(Output.stars(r.stars)) on \(Output.mediumDate(r.ratedAt))") }
        if let n = mine.note { print("note: \(n.text)") }
    }
}

/// A listing's description as paragraphs of plain text, for a terminal: HTML (when the listing
/// says it is) is read for its words — a block element (`p`, `div`, `li`, `h1`…, `br`, `tr`)
/// starts a new paragraph, a list item a "• ", `script` and `style` say nothing, entities are
/// decoded — and never passed on as markup.
///
/// ```swift
/// ListingText.paragraphs("<p>Stage 1: <b>count</b> the posts.</p><ul><li>A = posts</li></ul>", html: true)
/// // ["Stage 1: count the posts.", "• A = posts"]
/// ```
enum ListingText {
    static let blocks: Set<String> = ["p", "div", "br", "li", "tr", "table", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6",
                                      "hr", "blockquote", "pre", "dl", "dt", "dd", "section", "article", "center"]
    /// Inline elements that stand between words (a table's cells, a picture); others (`b`, `a`,
    /// `span`) join what is around them as written.
    static let separators: Set<String> = ["td", "th", "img", "input", "button", "label"]

    static func paragraphs(_ text: String, html: Bool) -> [String] {
        let raw = html ? Self.text(fromHTML: text) : text
        // A blank line (or, in HTML, a block) ends a paragraph; a single line break in text is kept as a break.
        let separator = html ? "\n" : "\n\n"
        return raw.replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: separator).compactMap { p in
            let lines = p.split(separator: "\n").map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }.filter { !$0.isEmpty }
            return lines.isEmpty ? nil : lines.joined(separator: html ? " " : "\n")
        }
    }

    /// The words of an HTML fragment, a line break where a block starts or ends.
    static func text(fromHTML html: String) -> String {
        var out = "", i = html.startIndex
        var skipping: String?
        while i < html.endIndex {
            let c = html[i]
            if c == "<", let close = html[i...].firstIndex(of: ">") {
                let tag = html[html.index(after: i)..<close]
                let closing = tag.hasPrefix("/")
                let name = tag.drop { $0 == "/" }.prefix { $0.isLetter || $0.isNumber }.lowercased()
                i = html.index(after: close)
                if let s = skipping { if closing && name == s { skipping = nil }; continue }
                if !closing && (name == "script" || name == "style") { skipping = name; continue }
                if blocks.contains(name) {
                    out += "\n"
                    if name == "li" && !closing { out += "• " }
                } else if separators.contains(name) {
                    out += " "
                }
                continue
            }
            i = html.index(after: i)
            if skipping != nil { continue }
            if c == "&", let semi = html[i...].prefix(10).firstIndex(of: ";") {
                if let decoded = entity(String(html[i..<semi])) {
                    out.append(decoded)
                    i = html.index(after: semi)
                    continue
                }
            }
            out.append(c)
        }
        return out
    }

    static func entity(_ name: String) -> Character? {
        switch name {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos", "#39": return "'"
        case "nbsp": return " "
        default:
            let number = name.hasPrefix("#x") || name.hasPrefix("#X") ? UInt32(name.dropFirst(2), radix: 16)
                : name.hasPrefix("#") ? UInt32(name.dropFirst()) : nil
            return number.flatMap(Unicode.Scalar.init).map(Character.init)
        }
    }
}

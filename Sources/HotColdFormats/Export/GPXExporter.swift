import Foundation
import HotColdCore

/// Writes places and visits as GPX 1.1.
///
/// Geocaches carry a Groundspeak `cache/1/0/1` extension (and GSAK's `LatBeforeCorrect` for
/// corrected coordinates), so other tools read them too; Big Things and locations carry a
/// small `hotcold` extension with their details, so an export imports back as the same places.
///
/// ```swift
/// let gpx = GPXExporter.places(try store.allPlaces())
/// ```
public enum GPXExporter {
    public static let namespace = "urn:hotcold:gpx:1"
    package static let groundspeak = "http://www.groundspeak.com/cache/1/0/1"
    package static let gsak = "http://www.gsak.net/xmlv1/6"

    package static func header(_ name: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="hotcold" xmlns="http://www.topografix.com/GPX/1/1" \
        xmlns:groundspeak="\(groundspeak)" xmlns:gsak="\(gsak)" xmlns:hotcold="\(namespace)">
          <metadata><name>\(XMLText.escape(name))</name><time>\(ISO8601.format(Date()))</time></metadata>

        """
    }

    package static func number(_ d: Double) -> String {
        d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(d)
    }

    public static func places(_ places: [PlaceDetail]) -> String {
        var out = header("hotcold places")
        for d in places { write(d, into: &out) }
        out += "</gpx>\n"
        return out
    }

    public static func visits(_ visits: [VisitRecord]) -> String {
        var out = header("hotcold visits")
        for v in visits {
            let p = v.place
            out += "  <wpt lat=\"\(p.latitude)\" lon=\"\(p.longitude)\">\n"
            out += "    <time>\(ISO8601.format(v.visit.visitedAt))</time>\n"
            out += "    <name>\(XMLText.escape(p.name))</name>\n"
            out += "    <desc>\(XMLText.escape("\(v.visit.method.rawValue) visit by \(v.visit.user)"))</desc>\n"
            if let photo = v.visit.photoPath { out += "    <link href=\"\(XMLText.escape(photo))\"/>\n" }
            out += "    <type>Visit</type>\n"
            out += "    <extensions><hotcold:visit place=\"\(XMLText.escape(p.id))\" kind=\"\(p.kind.rawValue)\" "
                + "method=\"\(v.visit.method.rawValue)\" user=\"\(XMLText.escape(v.visit.user))\"/></extensions>\n"
            out += "  </wpt>\n"
        }
        out += "</gpx>\n"
        return out
    }

    package static func element(_ name: String, _ value: String?, indent: String) -> String {
        guard let value else { return "" }
        return "\(indent)<\(name)>\(XMLText.escape(value))</\(name)>\n"
    }

    package static func write(_ d: PlaceDetail, into out: inout String) {
        let p = d.place
        out += "  <wpt lat=\"\(p.latitude)\" lon=\"\(p.longitude)\">\n"
        let i = "    "
        switch p.kind {
        case .geocache:
            let g = d.geocache
            out += element("time", g?.placedAt.map(ISO8601.format), indent: i)
            out += element("name", p.id, indent: i)
            out += element("url", g?.url, indent: i)
            out += element("urlname", p.name, indent: i)
            out += element("sym", "Geocache", indent: i)
            out += element("type", "Geocache|\(g?.cacheType ?? "Unknown Cache")", indent: i)
            out += "    <extensions>\n"
            if let g, let lat = g.originalLatitude, let lon = g.originalLongitude {
                out += "      <gsak:wptExtension><gsak:LatBeforeCorrect>\(lat)</gsak:LatBeforeCorrect>"
                    + "<gsak:LonBeforeCorrect>\(lon)</gsak:LonBeforeCorrect></gsak:wptExtension>\n"
            }
            if let g {
                out += "      <groundspeak:cache available=\"\(g.available ? "True" : "False")\" archived=\"\(g.archived ? "True" : "False")\">\n"
                let j = "        "
                out += element("groundspeak:name", p.name, indent: j)
                out += element("groundspeak:placed_by", g.placedBy, indent: j)
                out += element("groundspeak:owner", g.owner, indent: j)
                out += element("groundspeak:type", g.cacheType, indent: j)
                out += element("groundspeak:container", g.container, indent: j)
                out += element("groundspeak:difficulty", g.difficulty.map(number), indent: j)
                out += element("groundspeak:terrain", g.terrain.map(number), indent: j)
                out += element("groundspeak:country", g.country, indent: j)
                out += element("groundspeak:state", g.region, indent: j)
                let html = g.descriptionIsHTML ? "True" : "False"
                if let s = g.shortDescription {
                    out += "\(j)<groundspeak:short_description html=\"\(html)\">\(XMLText.escape(s))</groundspeak:short_description>\n"
                }
                if let s = g.longDescription {
                    out += "\(j)<groundspeak:long_description html=\"\(html)\">\(XMLText.escape(s))</groundspeak:long_description>\n"
                }
                out += element("groundspeak:encoded_hints", g.hint, indent: j)
                // Logs are not stored (only their count); write that many empty entries so the count survives.
                if g.logsCount > 0 {
                    out += "\(j)<groundspeak:logs>" + String(repeating: "<groundspeak:log/>", count: g.logsCount) + "</groundspeak:logs>\n"
                }
                out += "      </groundspeak:cache>\n"
            }
            out += "    </extensions>\n"
        case .waypoint:
            let w = d.waypoint
            out += element("name", p.id, indent: i)
            out += element("cmt", w?.comment, indent: i)
            out += element("desc", w?.description ?? p.name, indent: i)
            out += element("sym", w?.waypointType, indent: i)
            out += element("type", "Waypoint|\(w?.waypointType ?? "Reference Point")", indent: i)
            if let w {
                out += "    <extensions><gsak:wptExtension><gsak:Parent>\(XMLText.escape(w.parentId))</gsak:Parent></gsak:wptExtension></extensions>\n"
            }
        default:
            out += element("name", p.name, indent: i)
            if let b = d.bigThing {
                out += element("desc", b.description, indent: i)
                out += element("link", nil, indent: i)
                out += element("type", "Big Thing", indent: i)
                out += "    <extensions>\n      <hotcold:place id=\"\(XMLText.escape(p.id))\" kind=\"\(p.kind.rawValue)\">\n"
                let j = "        "
                out += element("hotcold:state", b.state.rawValue, indent: j)
                out += element("hotcold:town", b.town, indent: j)
                out += element("hotcold:location", b.location, indent: j)
                out += element("hotcold:photo_url", b.photoUrl, indent: j)
                out += element("hotcold:rating", b.rating.map(number), indent: j)
                out += element("hotcold:votes", b.votes.map(String.init), indent: j)
                out += element("hotcold:category", b.category, indent: j)
                out += element("hotcold:year", b.year.map(String.init), indent: j)
                out += element("hotcold:status", b.status, indent: j)
                out += element("hotcold:coord_precision", b.coordPrecision, indent: j)
                if b.withdrawn { out += element("hotcold:withdrawn", "true", indent: j) }
                for t in b.tags { out += element("hotcold:tag", t, indent: j) }
                out += "      </hotcold:place>\n    </extensions>\n"
            } else {
                out += element("type", p.kind == .location ? "Location" : p.kind.rawValue, indent: i)
                var attrs = "id=\"\(XMLText.escape(p.id))\" kind=\"\(p.kind.rawValue)\""
                if let l = d.location { attrs += " origin=\"\(l.origin.rawValue)\"" }
                out += "    <extensions><hotcold:place \(attrs)/></extensions>\n"
            }
        }
        out += "  </wpt>\n"
    }
}

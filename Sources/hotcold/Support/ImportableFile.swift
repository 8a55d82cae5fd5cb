import Foundation
import HotColdProtocol

/// A file given to `import` or `replay --targets`, read with ``ReadableFile`` and looked at
/// before any parser: the mistakes users make with files get a sentence of their own, not a
/// parser's complaint about line 1 (an empty file, a web page saved as .gpx, a GPX recording
/// that holds a track to replay rather than places to store).
enum ImportableFile {
    static func contents(of url: URL, what: String) throws -> Data {
        let data = try ReadableFile.contents(of: url, limit: Limits.importBytes, what: what)
        if let problem = problem(in: data) { throw CLIError("\(what) \(url.path): \(problem)") }
        return data
    }

    /// What is wrong with `data` for an import, or nil to let the importers judge it.
    static func problem(in data: Data) -> String? {
        let head = data.prefix(4096)
        let text = String(decoding: head, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines.union(["\u{FEFF}"]))
        if text.isEmpty { return data.count > head.count ? nil : "the file is empty" }
        let lower = text.lowercased()
        if isHTML(head) {
            return "this is an HTML page (a web page saved from a browser?), not GPX, LOC or JSON; download the file itself"
        }
        // A track recording: NMEA sentences or gpsd's JSON reports are for `replay`.
        let lines = text.split(whereSeparator: \.isNewline).prefix(20).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        if lines.contains(where: { $0.wholeMatch(of: /\$[A-Z]{5},.*/) != nil }) {
            return "this is an NMEA recording (a drive), not places to store: replay it with hotcold replay FILE --target LAT,LON"
        }
        if lines.contains(where: { $0.hasPrefix("{\"class\":\"TPV\"") || $0.hasPrefix("{\"class\":\"VERSION\"") }) {
            return "this is a gpsd recording (gpspipe -w), not places to store: replay it with hotcold replay FILE --target LAT,LON"
        }
        // Not markup, not JSON: no importer can read it (GPX and LOC are XML; the catalogues JSON).
        if let first = lower.first, !"<{[".contains(first) {
            return "this is neither XML (GPX, LOC) nor JSON (a catalogue, GeoJSON): it begins \"\(String(text.prefix(24)))\"; import takes GPX, LOC or JSON files of places"
        }
        if lower.hasPrefix("<"), lower.contains("<gpx"), data.range(of: Data("<wpt".utf8)) == nil,
           data.range(of: Data("<trkpt".utf8)) != nil || data.range(of: Data("<rtept".utf8)) != nil {
            return "this GPX file holds a track, no waypoints: replay it with hotcold replay FILE --target LAT,LON"
        }
        return nil
    }

    /// A page saved from a browser: its doctype or root says so (a GPX description may hold
    /// HTML further in, so only how the file begins counts).
    static func isHTML(_ head: Data) -> Bool {
        let lower = String(decoding: head.prefix(4096), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines.union(["\u{FEFF}"])).lowercased()
        return lower.hasPrefix("<!doctype html") || lower.hasPrefix("<html")
            || (lower.hasPrefix("<?xml") && (lower.contains("<!doctype html") || lower.range(of: #"\?>\s*<html"#, options: .regularExpression) != nil))
    }

    /// The first bytes of a file, or nothing when it cannot be read (its reader says why).
    static func head(of path: String) -> Data {
        guard let h = FileHandle(forReadingAtPath: path) else { return Data() }
        defer { try? h.close() }
        return (try? h.read(upToCount: 4096)) ?? Data()
    }
}

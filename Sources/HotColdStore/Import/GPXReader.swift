import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Streams a GPX file through `XMLParser` and collects each waypoint's fields. It keeps text
/// only for the elements it uses, so a pocket query's thousands of logs cost a counter each.
final class GPXReader: NSObject, XMLParserDelegate {
    private(set) var waypoints: [GPXWaypoint] = []
    private(set) var sawGPXRoot = false
    private var current: GPXWaypoint?
    private var path: [String] = []
    private var text = ""
    private var capturing = false
    private weak var parser: XMLParser?
    /// Where libxml2 first complained; it may carry on and stop later, but this is the place to fix.
    private var firstError: (line: Int, column: Int, message: String)?

    static let wptFields: Set<String> = ["name", "desc", "cmt", "time", "url", "urlname", "sym", "type"]
    static let cacheFields: Set<String> = [
        "name", "placed_by", "owner", "type", "container", "difficulty", "terrain", "country", "state",
        "short_description", "long_description", "encoded_hints",
    ]
    /// Plain words for the libxml2 errors a hand-edited GPX file usually has (FoundationXML
    /// reports only the number).
    static let libxmlReasons: [Int: String] = [
        4: "the document is empty", 5: "the file ends before the document is complete",
        9: "a character that XML does not allow", 23: "an '&' that does not start an entity (write &amp;)",
        26: "an entity that is not defined", 38: "an attribute value without quotes",
        39: "an attribute without a value", 40: "'<' inside an attribute value",
        41: "an attribute given twice", 64: "a broken XML declaration",
        68: "a tag without a name", 73: "a tag not closed with '>'",
        76: "an end tag that does not match its start tag", 85: "extra content after the root element",
    ]
    static let gsakFields: Set<String> = ["LatBeforeCorrect", "LonBeforeCorrect", "Parent", "Code"]

    func read(_ data: Data) -> (ok: Bool, line: Int, column: Int, message: String) {
        // FoundationXML traps on names that are not valid UTF-8 (an element, a processing
        // instruction; found by fuzzing): check the bytes first and name where they go wrong.
        if let bad = Self.firstInvalidUTF8(in: data) { return (false, bad.line, bad.column, "not valid UTF-8 (GPX is read as UTF-8)") }
        // It also calls strlen(NULL) on a processing instruction without data (`<?name?>`).
        if let bad = Self.firstEmptyProcessingInstruction(in: data) {
            return (false, bad.line, bad.column, "a processing instruction without data (<?name?>), which GPX never needs")
        }
        let p = XMLParser(data: data)
        p.shouldProcessNamespaces = true
        p.shouldResolveExternalEntities = false
        p.delegate = self
        parser = p
        // swift-corelibs' XMLParser can report an error and still return true from parse()
        // (a mismatched end tag at the end, for one): any reported error makes the file bad.
        let ok = p.parse() && firstError == nil
        if let e = firstError { return (ok, e.line, e.column, e.message) }
        return (ok, p.lineNumber, p.columnNumber, "malformed XML")
    }

    /// Line and column (1-based, in bytes) of the first `<?name?>` (a target, optional spaces,
    /// then `?>` at once), or nil.
    static func firstEmptyProcessingInstruction(in data: Data) -> (line: Int, column: Int)? {
        let b = [UInt8](data)
        var line = 1, lineStart = 0, i = 0
        func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }
        while i + 1 < b.count {
            if b[i] == 0x0A { line += 1; lineStart = i + 1 }
            if b[i] == UInt8(ascii: "<"), b[i + 1] == UInt8(ascii: "?") {
                var j = i + 2
                while j < b.count, !isSpace(b[j]), b[j] != UInt8(ascii: "?") { j += 1 }
                while j < b.count, isSpace(b[j]) { j += 1 }
                if j + 1 < b.count, b[j] == UInt8(ascii: "?"), b[j + 1] == UInt8(ascii: ">") {
                    return (line, i - lineStart + 1)
                }
            }
            i += 1
        }
        return nil
    }

    /// Line and column (1-based, in bytes) of the first byte that is not valid UTF-8, or nil.
    static func firstInvalidUTF8(in data: Data) -> (line: Int, column: Int)? {
        if String(validating: data, as: UTF8.self) != nil { return nil }
        var line = 1, column = 1
        var decoder = UTF8()
        var bytes = data.makeIterator()
        while true {
            switch decoder.decode(&bytes) {
            case .scalarValue(let u):
                if u == "\n" { line += 1; column = 1 } else { column += 1 }
            case .emptyInput:
                return nil
            case .error:
                return (line, column)
            }
        }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        guard firstError == nil else { return }
        let ns = parseError as NSError
        var message = GPXReader.libxmlReasons[ns.code].map { "malformed XML: \($0)" }
            ?? "malformed XML (libxml2 error \(ns.code))"
        if let reason = ns.userInfo[NSLocalizedDescriptionKey] as? String, !reason.isEmpty { message = reason }
        firstError = (parser.lineNumber, parser.columnNumber, message)
    }

    private static func local(_ name: String) -> String {
        if let i = name.lastIndex(of: ":") { return String(name[name.index(after: i)...]) }
        return name
    }

    private func namespace(_ uri: String?, _ qName: String?, _ element: String) -> String {
        let u = (uri ?? "").lowercased()
        if u.contains("groundspeak") { return "groundspeak" }
        if u.contains("gsak") { return "gsak" }
        if u.contains("hotcold") { return "hotcold" }
        // Without namespace processing, fall back to the prefix.
        let q = qName ?? element
        if let i = q.firstIndex(of: ":") { return String(q[..<i]).lowercased() }
        return ""
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes: [String: String] = [:]) {
        let name = GPXReader.local(elementName)
        let ns = namespace(namespaceURI, qName, elementName)
        path.append(name)
        capturing = false
        if path.count == 1 { sawGPXRoot = name == "gpx" }
        if name == "wpt" && path.count == 2 {
            current = GPXWaypoint(line: parser.lineNumber, index: waypoints.count + 1,
                                  lat: attributes["lat"], lon: attributes["lon"])
            return
        }
        guard current != nil else { return }
        if path.count == 3 && GPXReader.wptFields.contains(name) && ns != "groundspeak" {
            capturing = true
        } else if path.count == 3 && name == "link", let href = attributes["href"] {
            current!.fields["url"] = href
        } else if ns == "groundspeak" && name == "cache" {
            var c: [String: String] = [:]
            for (k, v) in attributes { c["@" + GPXReader.local(k)] = v }
            current!.cache = c
        } else if ns == "groundspeak" && name == "log" && path.dropLast().last == "logs" {
            current!.logsCount += 1
        } else if ns == "groundspeak" && path.dropLast().last == "cache" && GPXReader.cacheFields.contains(name) {
            capturing = true
            if let html = attributes["html"] { current!.cache?["@html_" + name] = html }
        } else if ns == "gsak" && GPXReader.gsakFields.contains(name) {
            capturing = true
        } else if ns == "hotcold" && name == "place" {
            current!.hotcold = attributes
        } else if ns == "hotcold" && current!.hotcold != nil {
            capturing = true
        }
        if capturing { text = "" }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if capturing { text += string }
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        if capturing { text += String(decoding: CDATABlock, as: UTF8.self) }
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?) {
        let name = GPXReader.local(elementName)
        let ns = namespace(namespaceURI, qName, elementName)
        defer {
            path.removeLast()
            capturing = false
        }
        guard current != nil else { return }
        if name == "wpt" && path.count == 2 {
            waypoints.append(current!)
            current = nil
            return
        }
        guard capturing else { return }
        if path.count == 3 && ns != "groundspeak" && ns != "gsak" && ns != "hotcold" {
            current!.fields[name] = text
        } else if ns == "groundspeak" {
            current!.cache?[name] = text
        } else if ns == "gsak" {
            current!.gsak[name] = text
        } else if ns == "hotcold" {
            if name == "tag" { current!.tags.append(text) } else { current!.hotcold?[name] = text }
        }
    }
}

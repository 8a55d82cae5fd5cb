import Foundation
import XMLStream

/// Collects each `<wpt>`'s raw fields from a GPX document through the streaming ``XMLScanner``
/// (the same reader replay uses for track points). It keeps text only for the elements it
/// uses, so a pocket query's thousands of logs cost a counter each.
///
/// Namespaces are told apart by URI (Groundspeak's `cache/1/0` and `1/0/1`, GSAK's, hotcold's
/// `urn:hotcold:gpx:1`), or by prefix where a file uses one without declaring it.
package struct GPXWaypointReader {
    /// Longer text than this (a cache description) refuses the file rather than cut it.
    package static let maximumTextLength = 1 << 20

    package static let wptFields: Set<String> = ["name", "desc", "cmt", "time", "url", "urlname", "sym", "type"]
    package static let cacheFields: Set<String> = [
        "name", "placed_by", "owner", "type", "container", "difficulty", "terrain", "country", "state",
        "short_description", "long_description", "encoded_hints",
    ]
    package static let gsakFields: Set<String> = ["LatBeforeCorrect", "LonBeforeCorrect", "Parent", "Code"]

    enum Namespace { case groundspeak, gsak, hotcold, other }

    private struct Element {
        var name: String
        var namespace: Namespace
        /// How many namespace bindings this element's start tag declared.
        var bindings = 0
        var capturing = false
        var hadChild = false
    }

    private(set) var waypoints: [GPXWaypoint] = []
    private(set) var sawGPXRoot = false
    private var current: GPXWaypoint?
    private var path: [Element] = []
    /// In-scope `xmlns` declarations, innermost last (prefix empty for the default namespace),
    /// each with the extension its URI names (classified once, not per element).
    private var bindings: [(prefix: [UInt8], namespace: Namespace)] = []

    /// Reads the whole document; a failure names line and column (1-based, in bytes).
    package static func read(_ data: Data) throws(XMLScanner.Failure) -> GPXWaypointReader {
        // Text is stored as strings: refuse bytes that are not UTF-8 rather than replace them.
        if let bad = firstInvalidUTF8(in: data) {
            throw XMLScanner.Failure(line: bad.line, column: bad.column, message: "not valid UTF-8 (GPX is read as UTF-8)")
        }
        var reader = GPXWaypointReader()
        let scanner = XMLScanner(source: data.withUnsafeBytes { XMLBytes($0) },
                                 maximumTextLength: maximumTextLength, longText: .fail)
        do {
            while let event = try scanner.next() {
                switch event {
                case .start(let selfClosing):
                    try reader.start(scanner)
                    if selfClosing { reader.end(text: []) }
                case .end:
                    reader.end(text: scanner.text)
                }
            }
        } catch let failure as XMLScanner.Failure {
            throw failure
        } catch {
            // XMLBytes never throws; anything else is a scanner bug worth naming, not a trap.
            throw XMLScanner.Failure(line: scanner.line, column: scanner.column, message: "\(error)")
        }
        return reader
    }

    private mutating func start(_ scanner: XMLScanner) throws {
        if !path.isEmpty { path[path.count - 1].hadChild = true }
        var attributes: [String: String] = [:]
        var declared = 0
        try scanner.forEachAttribute { qualified, value in
            if qualified.elementsEqual("xmlns".utf8) {
                bindings.append(([], Self.namespace(uri: value)))
                declared += 1
            } else if qualified.starts(with: "xmlns:".utf8) {
                bindings.append((Array(qualified.dropFirst(6)), Self.namespace(uri: value)))
                declared += 1
            } else {
                attributes[String(decoding: XMLScanner.local(qualified), as: UTF8.self)] = String(decoding: value, as: UTF8.self)
            }
        }
        let name = String(decoding: scanner.localName, as: UTF8.self)
        let ns = namespace(of: scanner.qualifiedName)
        path.append(Element(name: name, namespace: ns, bindings: declared))
        let depth = path.count
        if depth == 1 { sawGPXRoot = name == "gpx" }
        if name == "wpt" && depth == 2 {
            current = GPXWaypoint(line: scanner.tagLine, index: waypoints.count + 1,
                                  lat: attributes["lat"], lon: attributes["lon"])
            return
        }
        guard current != nil else { return }
        let parent = depth >= 2 ? path[depth - 2].name : nil
        var capturing = false
        if depth == 3 && Self.wptFields.contains(name) && ns != .groundspeak {
            capturing = true
        } else if depth == 3 && name == "link", let href = attributes["href"] {
            current!.fields["url"] = href
        } else if ns == .groundspeak && name == "cache" {
            var c: [String: String] = [:]
            for (k, v) in attributes { c["@" + k] = v }
            current!.cache = c
        } else if ns == .groundspeak && name == "log" && parent == "logs" {
            current!.logsCount += 1
        } else if ns == .groundspeak && parent == "cache" && Self.cacheFields.contains(name) {
            capturing = true
            if let html = attributes["html"] { current!.cache?["@html_" + name] = html }
        } else if ns == .gsak && Self.gsakFields.contains(name) {
            capturing = true
        } else if ns == .hotcold && name == "place" {
            current!.hotcold = attributes
        } else if ns == .hotcold && current!.hotcold != nil {
            capturing = true
        }
        path[depth - 1].capturing = capturing
    }

    /// The element at the top of `path` closes; `text` is what it held since its last child.
    private mutating func end(text: [UInt8]) {
        let element = path.removeLast()
        bindings.removeLast(element.bindings)
        let depth = path.count + 1
        guard current != nil else { return }
        if element.name == "wpt" && depth == 2 {
            waypoints.append(current!)
            current = nil
            return
        }
        // Like a text-only element: a field with child elements holds nothing we read.
        guard element.capturing, !element.hadChild else { return }
        let value = String(decoding: text, as: UTF8.self)
        switch element.namespace {
        case .groundspeak: current!.cache?[element.name] = value
        case .gsak: current!.gsak[element.name] = value
        case .hotcold:
            if element.name == "tag" { current!.tags.append(value) } else { current!.hotcold?[element.name] = value }
        case .other:
            if depth == 3 { current!.fields[element.name] = value }
        }
    }

    /// Which extension a tag belongs to: by its namespace URI, else by its prefix.
    private func namespace(of qualified: ArraySlice<UInt8>) -> Namespace {
        let prefix = qualified.firstIndex(of: 0x3A).map { Array(qualified[..<$0]) } ?? []
        if let bound = bindings.last(where: { $0.prefix == prefix })?.namespace, bound != .other { return bound }
        switch String(decoding: prefix, as: UTF8.self).lowercased() {
        case "groundspeak": return .groundspeak
        case "gsak": return .gsak
        case "hotcold": return .hotcold
        default: return .other
        }
    }

    /// The extension a namespace URI belongs to (Groundspeak's `cache/1/0/1`, GSAK's, ours).
    private static func namespace(uri: [UInt8]) -> Namespace {
        let u = String(decoding: uri, as: UTF8.self).lowercased()
        if u.contains("groundspeak") { return .groundspeak }
        if u.contains("gsak") { return .gsak }
        if u.contains("hotcold") { return .hotcold }
        return .other
    }

    /// Line and column (1-based, in bytes) of the first byte that is not valid UTF-8, or nil.
    package static func firstInvalidUTF8(in data: Data) -> (line: Int, column: Int)? {
        // The contiguous-buffer check is fast; the scalar walk only runs to say where.
        if data.withUnsafeBytes({ String(validating: $0.bindMemory(to: UInt8.self), as: UTF8.self) }) != nil { return nil }
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
}

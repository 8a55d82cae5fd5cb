/// A small pull-style streaming XML scanner: just enough XML for GPX, over chunks from an
/// ``XMLByteSource``, so a track of any size is read in flat memory and point by point, and a
/// pocket query's waypoints without a tree or a `String` per element. It is the one XML reader
/// in hotcold: replay's track points and the importers' waypoints both go through it.
///
/// It checks what makes XML well formed — tags nest and close, attributes are `name="value"`,
/// quotes and markup end, entities are defined, one root with only blanks around it — and skips
/// comments, processing instructions and DOCTYPE (no DTD is read, so no entity can expand into
/// more than a character). Text has its entities decoded; CDATA counts as text. Names are bytes:
/// the scanner never traps on bytes that are not UTF-8 (callers that store text check that).
public final class XMLScanner {
    public struct Failure: Error, Equatable, Sendable {
        public let line: Int
        public let column: Int
        public let message: String

        public init(line: Int, column: Int, message: String) {
            self.line = line
            self.column = column
            self.message = message
        }
    }

    /// What went wrong, before the scanner says where.
    struct Problem: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }

    public enum Event: Equatable, Sendable {
        /// `localName`, `attribute(_:)`, `forEachAttribute` describe the tag; an empty element
        /// gives `.start(selfClosing: true)` followed by no `.end`.
        case start(selfClosing: Bool)
        /// `localName` is the closed element's; `text` is the text since the previous tag.
        case end
    }

    /// Text longer than the limit: kept to the limit (a replay skips junk), or refused.
    public enum LongText: Sendable { case truncate, fail }

    private enum State { case text, entity, markup, comment, cdata, processing, doctype }

    static let maximumMarkupLength = 1 << 20
    static let maximumEntityLength = 10

    private let source: any XMLByteSource
    public let maximumTextLength: Int
    private let longText: LongText
    private var chunk = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
    private var position = 0
    private var state = State.text
    private var quote: UInt8 = 0
    private var markup: [UInt8] = []
    private var entity: [UInt8] = []
    private var doctypeDepth = 0
    /// `]` read inside CDATA and not yet known to be text (they may start `]]>`).
    private var pendingBrackets = 0
    /// The open elements' names, back to back, and where each ends.
    private var openNames: [UInt8] = []
    private var openEnds: [Int] = []
    /// The text since the last tag, entities decoded (valid until the next call to `next()`).
    public private(set) var text: [UInt8] = []
    public private(set) var line = 1
    private var lineStart = 0
    private var consumedBefore = 0
    private var sawRoot = false
    /// Where the markup being read (after `next()`, the tag just returned) began.
    public private(set) var tagLine = 1
    public private(set) var tagColumn = 1
    /// The last two bytes, to see the ends of comments and processing instructions.
    private var previous: UInt8 = 0
    private var beforePrevious: UInt8 = 0
    /// The text belongs to the event just returned; it goes on the next call.
    private var clearText = false

    /// The current tag's name with its namespace prefix, if any (valid until the next `next()`).
    public var qualifiedName: ArraySlice<UInt8> { markup[nameRange] }
    /// The current tag's name without namespace prefix.
    public var localName: ArraySlice<UInt8> { Self.local(markup[nameRange]) }
    /// Kept as a range, not a slice, so that `markup` stays uniquely referenced and is reused.
    private var nameRange = 0..<0
    private var tagEnd = 0

    public init(source: any XMLByteSource, maximumTextLength: Int = 1 << 16, longText: LongText = .truncate) {
        self.source = source
        self.maximumTextLength = maximumTextLength
        self.longText = longText
        markup.reserveCapacity(256)
        text.reserveCapacity(256)
    }

    public var column: Int { consumedBefore + position - lineStart + 1 }
    /// Open elements (a start tag's own element counts; a self-closing one does not).
    public var depth: Int { openEnds.count }

    public func next() throws -> Event? {
        if clearText {
            text.removeAll(keepingCapacity: true)
            clearText = false
        }
        while true {
            if position == chunk.count {
                consumedBefore += chunk.count
                guard let more = try source.nextChunk() else {
                    chunk = UnsafeBufferPointer(start: nil, count: 0)
                    position = 0
                    return try atEnd()
                }
                chunk = more
                position = 0
            }
            let c = chunk[position]
            position += 1
            let p1 = previous, p2 = beforePrevious
            beforePrevious = previous
            previous = c
            if c == 0x0A {
                line += 1
                lineStart = consumedBefore + position
            }
            switch state {
            case .text:
                if c == 0x3C {
                    tagLine = line
                    tagColumn = column - 1
                    state = .markup
                    markup.removeAll(keepingCapacity: true)
                } else if c == 0x26 {
                    state = .entity
                    entity.removeAll(keepingCapacity: true)
                } else {
                    try appendText(c)
                }
            case .entity:
                if c == 0x3B {
                    switch XMLEntity.decode(entity[...]) {
                    case .success(let bytes): for b in bytes { try appendText(b) }
                    case .failure(let problem): throw fail(problem.message)
                    }
                    state = .text
                } else if entity.count < Self.maximumEntityLength, !Self.isSpace(c), c != 0x3C, c != 0x26 {
                    entity.append(c)
                } else {
                    throw fail("an '&' that does not start an entity (write &amp;)")
                }
            case .markup:
                if let event = try markupByte(c) { return event }
            case .comment:
                if c == 0x3E, p1 == 0x2D, p2 == 0x2D { state = .text }
            case .processing:
                if c == 0x3E, p1 == 0x3F { state = .text }
            case .cdata:
                if c == 0x5D {
                    pendingBrackets += 1
                } else if c == 0x3E, pendingBrackets >= 2 {
                    for _ in 0..<(pendingBrackets - 2) { try appendText(0x5D) }
                    pendingBrackets = 0
                    state = .text
                } else {
                    for _ in 0..<pendingBrackets { try appendText(0x5D) }
                    pendingBrackets = 0
                    try appendText(c)
                }
            case .doctype:
                if c == 0x5B { doctypeDepth += 1 }
                else if c == 0x5D { doctypeDepth -= 1 }
                else if c == 0x3E, doctypeDepth <= 0 { state = .text }
            }
        }
    }

    @inline(__always)
    private func appendText(_ c: UInt8) throws {
        if text.count < maximumTextLength {
            text.append(c)
        } else if longText == .fail {
            throw fail("text longer than \(maximumTextLength) bytes")
        }
    }

    /// Local name of the innermost open element.
    var innermostOpen: ArraySlice<UInt8>? {
        guard let end = openEnds.last else { return nil }
        let start = openEnds.count > 1 ? openEnds[openEnds.count - 2] : 0
        return Self.local(openNames[start..<end])
    }

    /// The raw value (entities not decoded) of an attribute of the current start tag, by local
    /// name: for numbers, which never hold an entity.
    public func attribute(_ name: StaticString) -> ArraySlice<UInt8>? {
        let wanted = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
        var found: ArraySlice<UInt8>?
        forEachRawAttribute { qualified, value in
            if found == nil, Self.local(qualified).elementsEqual(wanted) { found = value }
        }
        return found
    }

    /// Every attribute of the current start tag: qualified name and value with entities decoded.
    /// Throws a failure at the tag for an entity that is not defined.
    public func forEachAttribute(_ body: (_ qualifiedName: ArraySlice<UInt8>, _ value: [UInt8]) throws -> Void) throws {
        var problem: Problem?
        var pairs: [(ArraySlice<UInt8>, [UInt8])] = []
        forEachRawAttribute { qualified, raw in
            guard problem == nil else { return }
            switch XMLEntity.decodeAll(raw) {
            case .success(let value): pairs.append((qualified, value))
            case .failure(let p): problem = p
            }
        }
        if let problem { throw failAtTag(problem.message) }
        for (name, value) in pairs { try body(name, value) }
    }

    /// Attributes were checked when the tag was read, so this walk can trust the syntax.
    private func forEachRawAttribute(_ body: (ArraySlice<UInt8>, ArraySlice<UInt8>) -> Void) {
        var i = tagEnd
        let n = markup.count
        while i < n {
            while i < n, Self.isSpace(markup[i]) { i += 1 }
            let nameStart = i
            while i < n, markup[i] != 0x3D, !Self.isSpace(markup[i]), markup[i] != 0x2F { i += 1 }
            let attrName = markup[nameStart..<i]
            while i < n, Self.isSpace(markup[i]) { i += 1 }
            guard i < n, markup[i] == 0x3D else { if i < n { i += 1 }; continue }
            i += 1
            while i < n, Self.isSpace(markup[i]) { i += 1 }
            guard i < n, markup[i] == 0x22 || markup[i] == 0x27 else { continue }
            let q = markup[i]
            let valueStart = i + 1
            i = valueStart
            while i < n, markup[i] != q { i += 1 }
            body(attrName, markup[valueStart..<min(i, n)])
            i += 1
        }
    }

    /// `name="value"` pairs, each after a blank, values quoted and without '<'.
    private func checkAttributes(from start: Int, to end: Int) throws {
        var i = start
        while i < end {
            let blankStart = i
            while i < end, Self.isSpace(markup[i]) { i += 1 }
            guard i < end else { return }
            guard i > blankStart else { throw failAtTag("attributes not separated by a blank") }
            let nameStart = i
            while i < end, markup[i] != 0x3D, !Self.isSpace(markup[i]), markup[i] != 0x22, markup[i] != 0x27 { i += 1 }
            guard i > nameStart else { throw failAtTag("an attribute without a name") }
            while i < end, Self.isSpace(markup[i]) { i += 1 }
            guard i < end, markup[i] == 0x3D else {
                throw failAtTag("an attribute without a value (\(Self.string(markup[nameStart..<i])))")
            }
            i += 1
            while i < end, Self.isSpace(markup[i]) { i += 1 }
            guard i < end, markup[i] == 0x22 || markup[i] == 0x27 else {
                throw failAtTag("an attribute value without quotes (\(Self.string(markup[nameStart..<min(i, end)])))")
            }
            let q = markup[i]
            i += 1
            while i < end, markup[i] != q {
                if markup[i] == 0x3C { throw failAtTag("'<' inside an attribute value") }
                i += 1
            }
            i += 1
        }
    }

    private func markupByte(_ c: UInt8) throws -> Event? {
        if quote != 0 {
            guard markup.count < Self.maximumMarkupLength else { throw fail("tag too long") }
            markup.append(c)
            if c == quote { quote = 0 }
            return nil
        }
        if markup.isEmpty {
            if c == 0x3F { state = .processing; previous = 0; return nil }
        }
        if markup.first == 0x21 || (markup.isEmpty && c == 0x21) {
            markup.append(c)
            if markup == Array("!--".utf8) { state = .comment; previous = 0; beforePrevious = 0 }
            else if markup == Array("![CDATA[".utf8) { state = .cdata; pendingBrackets = 0 }
            else if !Array("!--".utf8).starts(with: markup), !Array("![CDATA[".utf8).starts(with: markup) {
                state = .doctype
                doctypeDepth = 0
                if c == 0x3E { state = .text }
            }
            return nil
        }
        switch c {
        case 0x22, 0x27:
            quote = c
            markup.append(c)
        case 0x3C:
            throw fail("'<' inside a tag")
        case 0x3E:
            state = .text
            return try tag()
        default:
            guard markup.count < Self.maximumMarkupLength else { throw fail("tag too long") }
            markup.append(c)
        }
        return nil
    }

    private func tag() throws -> Event {
        var end = markup.count
        while end > 0, Self.isSpace(markup[end - 1]) { end -= 1 }
        if markup.first == 0x2F {
            var i = 1
            while i < end, Self.isSpace(markup[i]) { i += 1 }
            let name = markup[i..<end]
            nameRange = i..<end
            guard let openEnd = openEnds.last else { throw failAtTag("closing tag </\(Self.string(name))> with no open element") }
            let openStart = openEnds.count > 1 ? openEnds[openEnds.count - 2] : 0
            guard openNames[openStart..<openEnd].elementsEqual(name) else {
                throw failAtTag("closing tag </\(Self.string(name))> does not match <\(Self.string(openNames[openStart..<openEnd]))>")
            }
            openEnds.removeLast()
            openNames.removeLast(openNames.count - openStart)
            clearText = true
            return .end
        }
        let selfClosing = end > 0 && markup[end - 1] == 0x2F
        if selfClosing { end -= 1 }
        var nameEnd = 0
        while nameEnd < end, !Self.isSpace(markup[nameEnd]), markup[nameEnd] != 0x2F { nameEnd += 1 }
        guard nameEnd > 0 else { throw failAtTag("a tag without a name") }
        try checkAttributes(from: nameEnd, to: end)
        let name = markup[0..<nameEnd]
        if openEnds.isEmpty {
            guard !sawRoot else { throw failAtTag("content after the root element") }
            guard Self.isBlank(text) else { throw failAtTag("text before the root element") }
            sawRoot = true
        }
        if !selfClosing {
            openNames.append(contentsOf: name)
            openEnds.append(openNames.count)
        }
        nameRange = 0..<nameEnd
        tagEnd = nameEnd
        clearText = true
        return .start(selfClosing: selfClosing)
    }

    private func atEnd() throws -> Event? {
        guard state == .text else {
            throw fail(state == .entity ? "an '&' that does not start an entity (write &amp;)" : "file ends inside markup")
        }
        if let open = innermostOpen { throw fail("file ends before </\(Self.string(open))>") }
        guard sawRoot else { throw fail("no root element") }
        guard Self.isBlank(text) else { throw fail("text after the root element") }
        return nil
    }

    private func failAtTag(_ message: String) -> Failure {
        Failure(line: tagLine, column: tagColumn, message: message)
    }

    private func fail(_ message: String) -> Failure {
        Failure(line: line, column: column, message: message)
    }

    /// Blanks only, after an optional UTF-8 byte-order mark.
    private static func isBlank(_ b: [UInt8]) -> Bool {
        let body = b.starts(with: [0xEF, 0xBB, 0xBF]) ? b.dropFirst(3) : b[...]
        return body.allSatisfy(isSpace)
    }

    public static func local(_ name: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        if let colon = name.lastIndex(of: 0x3A) { return name[(colon + 1)...] }
        return name
    }

    @inline(__always)
    static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 }

    static func string(_ b: ArraySlice<UInt8>) -> String { String(decoding: b.prefix(64), as: UTF8.self) }
}

/// A small pull-style streaming XML scanner: just enough XML for GPX, over 64 KiB chunks, so a
/// track of any size is read in flat memory and point by point (Foundation's `XMLParser` pushes
/// the whole document through delegate calls and cannot pause between points).
///
/// It checks what makes XML structurally sound — tags nest and close, quotes and markup end —
/// and skips comments, processing instructions, DOCTYPE; CDATA counts as text. It does not
/// validate names or decode entities (GPX numbers and times never contain any).
final class XMLScanner {
    struct Failure: Error, Equatable {
        let line: Int
        let column: Int
        let message: String
    }

    enum Event: Equatable {
        /// `localName`, `attribute(_:)` describe the tag; an empty element gives `.start(true)`
        /// followed by no `.end`.
        case start(selfClosing: Bool)
        /// `localName` is the closed element's; `text` is the text since the previous tag.
        case end
    }

    private enum State { case text, markup, comment, cdata, processing, doctype }

    static let maximumMarkupLength = 1 << 20
    static let maximumTextLength = 1 << 16

    private let source: LineReader
    private var chunk = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
    private var position = 0
    private var state = State.text
    private var quote: UInt8 = 0
    private var markup: [UInt8] = []
    private var doctypeDepth = 0
    /// The open elements' names, back to back, and where each ends.
    private var openNames: [UInt8] = []
    private var openEnds: [Int] = []
    private(set) var text: [UInt8] = []
    private(set) var line = 1
    private var lineStart = 0
    private var consumedBefore = 0
    private var sawRoot = false
    /// Where the markup being read began, for errors about a whole tag.
    private var markupLine = 1
    private var markupColumn = 1
    /// The last two bytes, to see the ends of comments and processing instructions.
    private var previous: UInt8 = 0
    private var beforePrevious: UInt8 = 0
    /// The text belongs to the event just returned; it goes on the next call.
    private var clearText = false

    /// The current tag's name without namespace prefix (valid until the next call to `next()`).
    var localName: ArraySlice<UInt8> { Self.local(markup[nameRange]) }
    /// Kept as a range, not a slice, so that `markup` stays uniquely referenced and is reused.
    private var nameRange = 0..<0
    private var tagEnd = 0

    init(source: LineReader) {
        self.source = source
        markup.reserveCapacity(256)
        text.reserveCapacity(256)
    }

    var column: Int { consumedBefore + position - lineStart + 1 }
    var depth: Int { openEnds.count }

    func next() throws -> Event? {
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
                    markupLine = line
                    markupColumn = column - 1
                    state = .markup
                    markup.removeAll(keepingCapacity: true)
                } else if text.count < Self.maximumTextLength {
                    text.append(c)
                }
            case .markup:
                if let event = try markupByte(c) { return event }
            case .comment:
                if c == 0x3E, p1 == 0x2D, p2 == 0x2D { state = .text }
            case .processing:
                if c == 0x3E, p1 == 0x3F { state = .text }
            case .cdata:
                text.append(c)
                let n = text.count
                if c == 0x3E, n >= 3, text[n - 2] == 0x5D, text[n - 3] == 0x5D {
                    text.removeLast(3)
                    state = .text
                }
            case .doctype:
                if c == 0x5B { doctypeDepth += 1 }
                else if c == 0x5D { doctypeDepth -= 1 }
                else if c == 0x3E, doctypeDepth <= 0 { state = .text }
            }
        }
    }

    /// Local name of the innermost open element.
    var innermostOpen: ArraySlice<UInt8>? {
        guard let end = openEnds.last else { return nil }
        let start = openEnds.count > 1 ? openEnds[openEnds.count - 2] : 0
        return Self.local(openNames[start..<end])
    }

    /// The raw value of an attribute of the current start tag, by local name.
    func attribute(_ name: StaticString) -> ArraySlice<UInt8>? {
        let wanted = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
        var i = tagEnd
        let n = markup.count
        while i < n {
            while i < n, Self.isSpace(markup[i]) { i += 1 }
            let nameStart = i
            while i < n, markup[i] != 0x3D, !Self.isSpace(markup[i]), markup[i] != 0x2F { i += 1 }
            let attrName = Self.local(markup[nameStart..<i])
            while i < n, Self.isSpace(markup[i]) { i += 1 }
            guard i < n, markup[i] == 0x3D else { if i < n { i += 1 }; continue }
            i += 1
            while i < n, Self.isSpace(markup[i]) { i += 1 }
            guard i < n, markup[i] == 0x22 || markup[i] == 0x27 else { continue }
            let q = markup[i]
            let valueStart = i + 1
            i = valueStart
            while i < n, markup[i] != q { i += 1 }
            if attrName.elementsEqual(wanted) { return markup[valueStart..<min(i, n)] }
            i += 1
        }
        return nil
    }

    private func markupByte(_ c: UInt8) throws -> Event? {
        if quote != 0 {
            markup.append(c)
            if c == quote { quote = 0 }
            return nil
        }
        if markup.isEmpty {
            if c == 0x3F { state = .processing; return nil }
        }
        if markup.first == 0x21 || (markup.isEmpty && c == 0x21) {
            markup.append(c)
            if markup == Array("!--".utf8) { state = .comment; previous = 0; beforePrevious = 0 }
            else if markup == Array("![CDATA[".utf8) { state = .cdata }
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
            guard let openEnd = openEnds.last else { throw fail("closing tag </\(Self.string(name))> with no open element") }
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
        guard nameEnd > 0 else { throw fail("tag without a name") }
        let name = markup[0..<nameEnd]
        if openEnds.isEmpty {
            guard !sawRoot else { throw failAtTag("content after the root element") }
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
        guard state == .text else { throw fail("file ends inside markup") }
        if let open = innermostOpen { throw fail("file ends before </\(Self.string(open))>") }
        guard sawRoot else { throw fail("no root element") }
        return nil
    }

    private func failAtTag(_ message: String) -> Failure {
        Failure(line: markupLine, column: markupColumn, message: message)
    }

    private func fail(_ message: String) -> Failure {
        Failure(line: line, column: column, message: message)
    }

    private static func local(_ name: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        if let colon = name.lastIndex(of: 0x3A) { return name[(colon + 1)...] }
        return name
    }

    @inline(__always)
    private static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 }

    private static func string(_ b: ArraySlice<UInt8>) -> String { String(decoding: b.prefix(64), as: UTF8.self) }
}

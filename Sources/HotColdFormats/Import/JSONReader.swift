import HotColdProtocol

/// A small strict JSON parser (RFC 8259) that reports the line and column of the first error.
///
/// Foundation's decoders say *that* a file is malformed but not reliably *where* on every
/// platform; a person fixing a hand-edited catalogue needs the position.
///
/// ```swift
/// do { _ = try JSONReader.parse(Array("{\n  \"a\": 1,\n}".utf8)) }
/// catch let e as JSONSyntaxError { print(e.line, e.column) }   // 3 1
/// ```
struct JSONReader {
    private let b: [UInt8]
    private var i = 0
    private var depth = 0
    private static let maxDepth = 512

    public static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        var r = JSONReader(b: bytes)
        // Skip a UTF-8 byte order mark.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { r.i = 3 }
        r.skipSpace()
        let v = try r.value()
        r.skipSpace()
        if r.i < r.b.count { throw r.error("unexpected text after the end of the JSON value") }
        return v
    }

    private init(b: [UInt8]) { self.b = b }

    private func error(_ message: String, at offset: Int? = nil) -> JSONSyntaxError {
        let end = min(offset ?? i, b.count)
        var line = 1, lineStart = 0
        for k in 0..<end where b[k] == 0x0A {
            line += 1
            lineStart = k + 1
        }
        // Columns count characters, not bytes: skip UTF-8 continuation bytes.
        var column = 1
        for k in lineStart..<end where b[k] & 0xC0 != 0x80 { column += 1 }
        return JSONSyntaxError(line: line, column: column, message: message)
    }

    private mutating func skipSpace() {
        while i < b.count, b[i] == 0x20 || b[i] == 0x0A || b[i] == 0x0D || b[i] == 0x09 { i += 1 }
    }

    private func describeHere() -> String {
        guard i < b.count else { return "the end of the file" }
        let c = b[i]
        if c >= 0x21 && c < 0x7F { return "'\(Character(Unicode.Scalar(c)))'" }
        return "byte 0x\(String(c, radix: 16))"
    }

    private mutating func value() throws(JSONSyntaxError) -> JSONValue {
        guard i < b.count else { throw error("expected a value but the file ended") }
        switch b[i] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw error("expected a value, found \(describeHere())")
        }
    }

    private mutating func literal(_ word: String) throws(JSONSyntaxError) {
        let w = Array(word.utf8)
        guard i + w.count <= b.count, Array(b[i..<(i + w.count)]) == w else {
            throw error("expected a value, found \(describeHere())")
        }
        i += w.count
    }

    private mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        if depth > JSONReader.maxDepth { throw error("nesting deeper than \(JSONReader.maxDepth) levels") }
    }

    private mutating func object() throws(JSONSyntaxError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        i += 1
        var out: [String: JSONValue] = [:]
        skipSpace()
        if i < b.count, b[i] == UInt8(ascii: "}") { i += 1; return .object(out) }
        while true {
            skipSpace()
            guard i < b.count, b[i] == UInt8(ascii: "\"") else {
                throw error("expected a quoted member name, found \(describeHere())")
            }
            let key = try string()
            skipSpace()
            guard i < b.count, b[i] == UInt8(ascii: ":") else {
                throw error("expected ':' after the member name \"\(key)\", found \(describeHere())")
            }
            i += 1
            skipSpace()
            out[key] = try value()
            skipSpace()
            guard i < b.count else { throw error("the file ended inside an object") }
            if b[i] == UInt8(ascii: ",") { i += 1; continue }
            if b[i] == UInt8(ascii: "}") { i += 1; return .object(out) }
            throw error("expected ',' or '}' in an object, found \(describeHere())")
        }
    }

    private mutating func array() throws(JSONSyntaxError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        i += 1
        var out: [JSONValue] = []
        skipSpace()
        if i < b.count, b[i] == UInt8(ascii: "]") { i += 1; return .array(out) }
        while true {
            skipSpace()
            out.append(try value())
            skipSpace()
            guard i < b.count else { throw error("the file ended inside an array") }
            if b[i] == UInt8(ascii: ",") { i += 1; continue }
            if b[i] == UInt8(ascii: "]") { i += 1; return .array(out) }
            throw error("expected ',' or ']' in an array, found \(describeHere())")
        }
    }

    private mutating func number() throws(JSONSyntaxError) -> Double {
        let start = i
        if b[i] == UInt8(ascii: "-") { i += 1 }
        func digits(_ r: inout JSONReader) -> Int {
            let s = r.i
            while r.i < r.b.count, r.b[r.i] >= 0x30, r.b[r.i] <= 0x39 { r.i += 1 }
            return r.i - s
        }
        let intStart = i
        let n = digits(&self)
        if n == 0 { throw error("expected digits in a number") }
        if n > 1 && b[intStart] == UInt8(ascii: "0") { throw error("a number may not start with 0", at: intStart) }
        if i < b.count, b[i] == UInt8(ascii: ".") {
            i += 1
            if digits(&self) == 0 { throw error("expected digits after the decimal point") }
        }
        if i < b.count, b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E") {
            i += 1
            if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") { i += 1 }
            if digits(&self) == 0 { throw error("expected digits in the exponent") }
        }
        let text = String(decoding: b[start..<i], as: UTF8.self)
        guard let v = Double(text), v.isFinite else { throw error("number out of range", at: start) }
        return v
    }

    private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        guard i + 4 <= b.count else { throw error("incomplete \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = b[i]
            let d: UInt32
            switch c {
            case 0x30...0x39: d = UInt32(c - 0x30)
            case 0x41...0x46: d = UInt32(c - 0x41 + 10)
            case 0x61...0x66: d = UInt32(c - 0x61 + 10)
            default: throw error("invalid hex digit in a \\u escape")
            }
            v = v * 16 + d
            i += 1
        }
        return v
    }

    private mutating func string() throws(JSONSyntaxError) -> String {
        let open = i
        i += 1
        var bytes: [UInt8] = []
        while true {
            guard i < b.count else { throw error("unterminated string (opened here)", at: open) }
            let c = b[i]
            if c == UInt8(ascii: "\"") { i += 1; break }
            if c < 0x20 { throw error("control character inside a string (a raw line break?)") }
            if c != UInt8(ascii: "\\") { bytes.append(c); i += 1; continue }
            i += 1
            guard i < b.count else { throw error("unterminated string (opened here)", at: open) }
            let e = b[i]
            i += 1
            switch e {
            case UInt8(ascii: "\""): bytes.append(0x22)
            case UInt8(ascii: "\\"): bytes.append(0x5C)
            case UInt8(ascii: "/"): bytes.append(0x2F)
            case UInt8(ascii: "b"): bytes.append(0x08)
            case UInt8(ascii: "f"): bytes.append(0x0C)
            case UInt8(ascii: "n"): bytes.append(0x0A)
            case UInt8(ascii: "r"): bytes.append(0x0D)
            case UInt8(ascii: "t"): bytes.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800...0xDBFF).contains(scalar), i + 6 <= b.count,
                   b[i] == UInt8(ascii: "\\"), b[i + 1] == UInt8(ascii: "u") {
                    i += 2
                    let low = try hex4()
                    if (0xDC00...0xDFFF).contains(low) {
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                }
                let u = Unicode.Scalar(scalar) ?? "\u{FFFD}"
                bytes.append(contentsOf: Array(String(Character(u)).utf8))
            default:
                throw error("invalid escape '\\\(Character(Unicode.Scalar(e)))' in a string", at: i - 2)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

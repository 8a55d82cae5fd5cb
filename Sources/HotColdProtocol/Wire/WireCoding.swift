#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HotColdCore

/// How protocol values become lines and back.
///
/// Replies and events use snake_case keys made from Swift's camelCase names (`distanceM` is
/// `distance_m`), ISO-8601 UTC times with milliseconds, and `"class"` first. Requests have
/// their own hand-written coding (literal keys, validated while decoding), so the key strategy
/// never touches them.
public enum WireCoding {
    /// The encoder for reply and event bodies (and the store results inside them).
    public static func encoder() -> JSONEncoder {
        let e = JSONEncoder()
        e.keyEncodingStrategy = .convertToSnakeCase
        // Sorted keys: the same value is the same line, every time (after `class`, which is first).
        e.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        e.dateEncodingStrategy = .custom { date, encoder in
            var c = encoder.singleValueContainer()
            try c.encode(ISO8601.format(date))
        }
        e.dataEncodingStrategy = .base64
        return e
    }

    /// The decoder matching `encoder()`.
    public static func decoder() -> JSONDecoder {
        let d = JSONDecoder()
        d.keyDecodingStrategy = .convertFromSnakeCase
        d.dateDecodingStrategy = .custom { decoder in
            let c = try decoder.singleValueContainer()
            let s = try c.decode(String.self)
            guard let date = ISO8601.parse(s) else {
                throw DecodingError.dataCorruptedError(in: c, debugDescription: "not an ISO-8601 time: \(s)")
            }
            return date
        }
        d.dataDecodingStrategy = .base64
        return d
    }

    /// A value as one JSON object with the wire's conventions (snake_case keys, sorted; ISO-8601
    /// times) and no `class`: the bridge's broker messages that are not hotcold lines.
    public static func object<T: Encodable>(_ value: T) -> String {
        (try? encoder().encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// One reply or event as a line (no newline): `{"class":"…",` then the body's own fields.
    ///
    /// The encoder does not promise key order, so `class` is written first here and the body
    /// (an object) follows; the body never has a `class` key of its own.
    public static func line<M: WireMessage>(_ message: M) -> String {
        line(message, seq: nil)
    }

    /// An event line: `{"class":"…","seq":N,` then the rest of the body, the order the event
    /// log's reader (`PublishedLineHeader`) and every subscriber rely on.
    public static func line<M: SequencedMessage>(_ message: M) -> String {
        guard let seq = message.seq else { return line(message, seq: nil) }
        var body = message
        body.seq = nil
        return line(body, seq: seq)
    }

    private static func line<M: WireMessage>(_ message: M, seq: Int?) -> String {
        let body: Data
        do {
            body = try encoder().encode(message)
        } catch {
            // Only non-finite numbers can fail, and every reply type keeps them out; say so
            // rather than trap.
            return line(ErrorReply(ProtocolError(.internal, command: nil, "cannot encode \(message.wireClass): \(error)")))
        }
        var out = "{\"class\":"
        JSONLine.appendQuoted(message.wireClass, to: &out)
        if let seq { out.append(",\"seq\":\(seq)") }
        let text = String(decoding: body, as: UTF8.self)
        if text != "{}" {
            out.append(",")
            out.append(contentsOf: text.dropFirst())
        } else {
            out.append("}")
        }
        return out
    }

    /// The `class` of a line, if it is an object with one.
    ///
    /// Every line this protocol writes begins `{"class":"NAME"` (``line(_:)`` puts it first), so
    /// that prefix is read without parsing the line; anything else — another key order, an
    /// escape in the name — is parsed whole, as before. A subscriber reads each line's class
    /// several times on its way (the client, the bridge's router, the page's feed): this keeps
    /// that to a few dozen byte compares instead of a JSON parse each time.
    public static func className(of line: some StringProtocol) -> String? {
        leadingClassName(line.utf8) ?? classNameByParsing(of: line)
    }

    /// The class by a full JSON parse (the slow path of ``className(of:)``; the benchmark's baseline).
    public static func classNameByParsing(of line: some StringProtocol) -> String? {
        try? JSONDecoder().decode(ClassHead.self, from: Data(line.utf8)).class
    }

    /// `NAME` when the line starts `{"class":"NAME"` followed by `,` or `}`, with NAME made of
    /// A–Z, a–z, 0–9 and `_` (every class there is); nil otherwise.
    static func leadingClassName(_ utf8: some Collection<UInt8>) -> String? {
        if let answer = utf8.withContiguousStorageIfAvailable({ leadingClassName(bytes: $0) }) { return answer }
        return Array(utf8).withUnsafeBufferPointer { leadingClassName(bytes: $0) }
    }

    private static let classPrefix: [UInt8] = Array(#"{"class":""#.utf8)

    private static func leadingClassName(bytes: UnsafeBufferPointer<UInt8>) -> String? {
        let p = classPrefix
        guard bytes.count > p.count + 1 else { return nil }
        for k in 0..<p.count where bytes[k] != p[k] { return nil }
        var end = p.count
        while end < bytes.count, end - p.count <= 64 {
            let b = bytes[end]
            if b == UInt8(ascii: "\"") {
                guard end > p.count, end + 1 < bytes.count, bytes[end + 1] == UInt8(ascii: ",") || bytes[end + 1] == UInt8(ascii: "}") else { return nil }
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[p.count..<end]), as: UTF8.self)
            }
            guard (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b) || (0x30...0x39).contains(b) || b == 0x5F else { return nil }
            end += 1
        }
        return nil
    }

    /// Decodes a reply or event line as `M`, checking its class. ERROR lines throw their error.
    public static func decode<M: FixedClassMessage>(_ type: M.Type, from line: some StringProtocol) throws(ProtocolError) -> M {
        try decode(type, class: M.wireClass, from: line)
    }

    /// Decodes a line of class `expected` as `M` (for result replies, whose class depends on
    /// the command). ERROR lines throw their error.
    public static func decode<M: WireMessage>(_ type: M.Type, class expected: String,
                                              from line: some StringProtocol) throws(ProtocolError) -> M {
        let data = Data(line.utf8)
        guard let cls = className(of: line) else {
            throw ProtocolError(.badJSON, command: nil, "not a reply object: \(preview(line))")
        }
        if cls == ErrorReply.wireClass, expected != ErrorReply.wireClass {
            guard let e = try? decoder().decode(ErrorReply.self, from: data) else {
                throw ProtocolError(.badJSON, command: nil, "malformed ERROR: \(preview(line))")
            }
            throw e.error
        }
        guard cls == expected else {
            throw ProtocolError(.badField, command: nil, "expected \(expected), got \(cls)")
        }
        do {
            var m = try decoder().decode(M.self, from: data)
            m.wireClassDecoded(cls)
            return m
        } catch {
            throw ProtocolError(.badField, command: nil, "\(cls) reply does not decode: \(error)")
        }
    }

    static func preview(_ line: some StringProtocol) -> String {
        line.count > 60 ? String(line.prefix(60)) + "…" : String(line)
    }
}

/// A reply or event: a Codable body whose line carries `"class": wireClass` first.
public protocol WireMessage: Codable, Sendable {
    var wireClass: String { get }
    /// Told the class its line had, for types whose class is not fixed. Default: nothing.
    mutating func wireClassDecoded(_ name: String)
}

/// An event the daemon numbers: its line carries `"seq"` right after `"class"`.
public protocol SequencedMessage: WireMessage {
    var seq: Int? { get set }
}

/// A reply or event whose class is always the same.
public protocol FixedClassMessage: WireMessage {
    static var wireClass: String { get }
}

extension FixedClassMessage {
    public var wireClass: String { Self.wireClass }
}

extension WireMessage {
    public mutating func wireClassDecoded(_ name: String) {}
}

/// Just the `class` of a line.
private struct ClassHead: Decodable { var `class`: String }

/// A refused request, or a reply the client could not use: a stable `code`, the command and
/// field it is about, and a sentence for people.
///
/// ```swift
/// let e = ProtocolError(.outOfRange, command: "roam", field: "radius",
///                       "must be > 0 and at most 20000 km, got 1e+306 m")
/// e.message   // "roam: radius: must be > 0 and at most 20000 km, got 1e+306 m"
/// ```
public struct ProtocolError: Error, Sendable, Equatable, CustomStringConvertible {
    public var code: ErrorCode
    public var command: String?
    public var field: String?
    /// The whole sentence, prefixed with the command and field.
    public var message: String

    public init(_ code: ErrorCode, command: String?, field: String? = nil, _ detail: String) {
        self.code = code
        self.command = command
        self.field = field
        var prefix = ""
        if let command { prefix += "\(command): " }
        if let field { prefix += "\(field): " }
        self.message = prefix + detail
    }

    /// As decoded from an `ERROR` line (the message already complete).
    init(code: ErrorCode, command: String?, field: String?, message: String) {
        self.code = code
        self.command = command
        self.field = field
        self.message = message
    }

    public var description: String { message }

    /// The sentence for a person: the message without the wire's `command: field: ` prefix
    /// (the client already says which command it ran; `targets[0]` is no word of theirs).
    var sentence: String {
        var text = Substring(message)
        if let command, text.hasPrefix("\(command): ") { text = text.dropFirst(command.count + 2) }
        if let field, text.hasPrefix("\(field): ") { text = text.dropFirst(field.count + 2) }
        return String(text)
    }
}

/// `{"class":"ERROR","code":"out_of_range","command":"roam","field":"radius","message":"…"}`
public struct ErrorReply: FixedClassMessage, Equatable {
    public static let wireClass = "ERROR"
    public var code: ErrorCode
    public var command: String?
    public var field: String?
    public var message: String

    public init(_ error: ProtocolError) {
        code = error.code
        command = error.command
        field = error.field
        message = error.message
    }

    public var error: ProtocolError {
        ProtocolError(code: code, command: command, field: field, message: message)
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        // A code this client does not know yet reads as `internal`: still an error.
        code = (try? c.decode(ErrorCode.self, forKey: .code)) ?? .internal
        command = try c.decodeIfPresent(String.self, forKey: .command)
        field = try c.decodeIfPresent(String.self, forKey: .field)
        message = try c.decode(String.self, forKey: .message)
    }
}

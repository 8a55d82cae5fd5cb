import Foundation

/// Lines on hotcold-web's control socket (`hotcold web pair` speaks them): one JSON request,
/// one JSON reply.
///
/// ```json
/// {"cmd":"pair","name":"phone"}
/// {"class":"PAIRED","name":"phone","user":"jane","writer":true,"expires":"…","url":"http://…/pair?t=…","token":"…","link_expires":"…","qr":["…"]}
/// {"cmd":"list"}      →  {"class":"DEVICES","devices":[{"name":"phone","user":"jane","writer":true,"expires":"…"}]}
/// {"cmd":"revoke","name":"phone"}  →  {"class":"REVOKED","count":1}
/// ```
public struct ControlRequest: Codable, Sendable, Equatable {
    public var cmd: String
    public var name: String?

    public init(cmd: String, name: String? = nil) {
        self.cmd = cmd
        self.name = name
    }
}

public struct PairedReply: Codable, Sendable, Equatable {
    public var `class` = "PAIRED"
    public var name: String
    public var user: String
    public var writer: Bool
    public var expires: Date
    public var url: String
    /// The link's one-time code (the `t` in `url`), not the device's session token.
    public var token: String
    /// The link works once, until then.
    public var linkExpires: Date?
    public var qr: [String]
    enum CodingKeys: String, CodingKey { case `class`, name, user, writer, expires, url, token, linkExpires = "link_expires", qr }
}

public struct DevicesReply: Codable, Sendable, Equatable {
    public struct Entry: Codable, Sendable, Equatable {
        public var name: String
        public var user: String
        public var writer: Bool
        public var expires: Date
    }
    public var `class` = "DEVICES"
    public var devices: [Entry]
}

public struct RevokedReply: Codable, Sendable, Equatable {
    public var `class` = "REVOKED"
    public var count: Int
}

public struct ControlError: Codable, Sendable, Equatable, Error {
    public var `class` = "ERROR"
    public var message: String
    public init(_ message: String) { self.message = message }
}

enum ControlCoding {
    static func line(_ value: some Encodable) -> String {
        let e = JSONEncoder()
        e.dateEncodingStrategy = .iso8601
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return ((try? String(decoding: e.encode(value), as: UTF8.self)) ?? #"{"class":"ERROR","message":"encoding"}"#) + "\n"
    }
}

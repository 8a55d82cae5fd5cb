#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A line on `hotcold-web`'s control socket (`hotcold web` speaks it): pair a device, list the
/// pairings, revoke one. Decoded and checked here once, for both ends; who may do what is
/// hotcold-web's to decide (from the kernel's peer credentials). See PROTOCOL.md, "hotcold-web's
/// control socket".
///
/// ```json
/// {"cmd":"pair","name":"phone"}
/// {"cmd":"list"}
/// {"cmd":"revoke","name":"phone"}
/// ```
public enum WebControlRequest: Sendable, Equatable {
    case pair(name: String)
    case list
    case revoke(name: String)

    /// The longest device name.
    static let nameLength = 40

    /// A device name: 1–40 letters, digits, spaces, `-`, `_` or `.` (what a person calls a phone).
    public static func isDeviceName(_ s: String) -> Bool {
        !s.isEmpty && s.count <= nameLength && s.allSatisfy { $0.isLetter || $0.isNumber || " -_.".contains($0) }
    }

    public static let nameRule = "a device name is 1 to 40 letters, digits, spaces, - _ or . (for example \"my phone\")"

    public var command: String {
        switch self {
        case .pair: "pair"
        case .list: "list"
        case .revoke: "revoke"
        }
    }

    /// Decodes one line; every failure is a `ProtocolError` naming the field.
    public static func decode(line: some StringProtocol) -> Result<WebControlRequest, ProtocolError> {
        guard line.utf8.count <= 4096 else {
            return .failure(ProtocolError(.tooLarge, command: nil, "a control line is at most 4096 bytes"))
        }
        do {
            return .success(try JSONDecoder().decode(Envelope.self, from: Data(line.utf8)).request)
        } catch let e as ProtocolError {
            return .failure(e)
        } catch {
            return .failure(ProtocolError(.badJSON, command: nil, "expected one JSON line such as {\"cmd\":\"pair\",\"name\":\"phone\"}"))
        }
    }

    /// The request as one line (no newline).
    public var line: String {
        String(decoding: (try? JSONEncoder().encode(Envelope(request: self))) ?? Data(), as: UTF8.self)
    }

    struct Envelope: Codable {
        var request: WebControlRequest

        init(request: WebControlRequest) { self.request = request }

        init(from decoder: any Decoder) throws {
            let c: KeyedDecodingContainer<AnyKey>
            do { c = try decoder.container(keyedBy: AnyKey.self) } catch {
                throw ProtocolError(.badJSON, command: nil, "expected a JSON object with a \"cmd\" field")
            }
            let cmd = (try? c.decode(String.self, forKey: AnyKey("cmd"))) ?? ""
            switch cmd {
            case "list":
                _ = try Fields(decoder, command: cmd, allowed: [])
                request = .list
            case "pair", "revoke":
                let f = try Fields(decoder, command: cmd, allowed: ["name"])
                let name = try f.requiredString("name", max: WebControlRequest.nameLength * 4, what: "the device's name")
                guard WebControlRequest.isDeviceName(name) else {
                    throw ProtocolError(.badField, command: cmd, field: "name", WebControlRequest.nameRule)
                }
                request = cmd == "pair" ? .pair(name: name) : .revoke(name: name)
            default:
                throw ProtocolError(.unknownCommand, command: nil, "unknown command \"\(cmd.prefix(40))\"; expected pair, list or revoke")
            }
        }

        func encode(to encoder: any Encoder) throws {
            var w = try FieldWriter(encoder, command: request.command)
            switch request {
            case .pair(let name), .revoke(let name): try w.put("name", name)
            case .list: break
            }
        }
    }
}

/// PAIRED: the device is paired; `url` carries a one-time link code (`token`), good until
/// `link_expires`; the session it opens lasts until `expires`. `qr` is the link as a QR code,
/// one string per terminal row.
public struct WebPairedReply: FixedClassMessage, Equatable {
    public static let wireClass = "PAIRED"
    public var name: String
    public var user: String
    public var writer: Bool
    public var expires: Date
    public var url: String
    /// The link's one-time code (the `t` in `url`), not the device's session token.
    var token: String
    var linkExpires: Date?
    public var qr: [String]

    public init(name: String, user: String, writer: Bool, expires: Date, url: String, token: String,
                linkExpires: Date?, qr: [String]) {
        self.name = name
        self.user = user
        self.writer = writer
        self.expires = expires
        self.url = url
        self.token = token
        self.linkExpires = linkExpires
        self.qr = qr
    }
}

/// DEVICES: the pairings the asking user made (root: everyone's).
public struct WebDevicesReply: FixedClassMessage, Equatable {
    public static let wireClass = "DEVICES"
    public struct Device: Codable, Sendable, Equatable {
        public var name: String
        public var user: String
        public var writer: Bool
        public var expires: Date
        public init(name: String, user: String, writer: Bool, expires: Date) {
            self.name = name
            self.user = user
            self.writer = writer
            self.expires = expires
        }
    }
    public var devices: [Device]
    public init(devices: [Device]) { self.devices = devices }
}

/// REVOKED: how many pairings of that name were removed (0: none had it).
public struct WebRevokedReply: FixedClassMessage, Equatable {
    public static let wireClass = "REVOKED"
    public var count: Int
    public init(count: Int) { self.count = count }
}

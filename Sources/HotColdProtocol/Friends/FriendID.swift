/// A device on the broker, `USER/DEVICE` (the bridge's `[topics] user` and `device`): each
/// part 1–64 characters of `[A-Za-z0-9._-]`, so it is safe as an MQTT topic level and as a
/// file-free identifier. A friend on the radar is the target `friend:USER/DEVICE`.
///
/// ```swift
/// let jane = FriendID(parsing: "jane/ute")   // user "jane", device "ute"
/// jane?.targetID                              // "friend:jane/ute"
/// ```
public struct FriendID: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    public let user: String
    public let device: String

    /// Longest user or device part.
    static let partLength = 64
    /// The author name the daemon gives its own feed items (never a remote author).
    public static let selfAuthor = "self"

    public init?(user: String, device: String) {
        guard Self.isPart(user), Self.isPart(device) else { return nil }
        self.user = user
        self.device = device
    }

    public init?(parsing text: some StringProtocol) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        self.init(user: String(parts[0]), device: String(parts[1]))
    }

    /// Whether `s` is a valid user or device part.
    static func isPart(_ s: some StringProtocol) -> Bool {
        let u = s.utf8
        return (1...partLength).contains(u.count) && u.allSatisfy { b in
            (0x30...0x39).contains(b) || (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b)
                || b == 0x2E || b == 0x5F || b == 0x2D
        }
    }

    public var description: String { "\(user)/\(device)" }
    /// The radar's target id.
    public var targetID: String { "friend:\(user)/\(device)" }
    /// The name shown when the friend's messages give none.
    public var defaultName: String { "\(user) · \(device)" }

    public static func < (a: FriendID, b: FriendID) -> Bool { (a.user, a.device) < (b.user, b.device) }

    public init(from decoder: any Decoder) throws {
        let s = try decoder.singleValueContainer().decode(String.self)
        guard let id = FriendID(parsing: s) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not USER/DEVICE: \(s)"))
        }
        self = id
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}

/// A feed item's id, `USER/DEVICE/SEQ`: the author device and the author daemon's event
/// number of the ARRIVED or RECORD it came from (unique per author device).
public struct FeedItemID: Sendable, Hashable, Codable, CustomStringConvertible {
    public let author: String
    public let device: String
    public let seq: Int

    public init?(author: String, device: String, seq: Int) {
        guard FriendID.isPart(author), FriendID.isPart(device), (0...Limits.maxInteger).contains(seq) else { return nil }
        self.author = author
        self.device = device
        self.seq = seq
    }

    public init?(parsing text: some StringProtocol) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[2].utf8.count <= 16, parts[2].utf8.allSatisfy({ (0x30...0x39).contains($0) }),
              let seq = Int(parts[2]) else { return nil }
        self.init(author: String(parts[0]), device: String(parts[1]), seq: seq)
    }

    public var description: String { "\(author)/\(device)/\(seq)" }

    public init(from decoder: any Decoder) throws {
        let s = try decoder.singleValueContainer().decode(String.self)
        guard let id = FeedItemID(parsing: s) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not USER/DEVICE/SEQ: \(s)"))
        }
        self = id
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}

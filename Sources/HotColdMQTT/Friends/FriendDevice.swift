/// A device as friends name it: `USER/DEVICE`, each part 1–64 characters of `[A-Za-z0-9._-]`
/// (the friends contract), so it is always exactly two topic levels and safe in a command.
///
/// ```swift
/// FriendDevice("jane/ute")?.user    // "jane"
/// FriendDevice("jane/#")            // nil
/// ```
public struct FriendDevice: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let user: String
    public let device: String

    public init?(user: some StringProtocol, device: some StringProtocol) {
        guard Self.isValidPart(user), Self.isValidPart(device) else { return nil }
        self.user = String(user)
        self.device = String(device)
    }

    /// `USER/DEVICE`; nil when it is anything else.
    public init?(_ text: some StringProtocol) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        self.init(user: parts[0], device: parts[1])
    }

    public static let maximumPartLength = 64

    public static func isValidPart(_ s: some StringProtocol) -> Bool {
        let u = s.utf8
        guard !u.isEmpty, u.count <= maximumPartLength else { return false }
        return u.allSatisfy { b in
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x2E || b == 0x5F || b == 0x2D
        }
    }

    public var description: String { "\(user)/\(device)" }

    public static func < (a: FriendDevice, b: FriendDevice) -> Bool { a.description < b.description }
}

import Foundation

/// A device paired with `hotcold web pair`: its token (kept in the device's cookie), who paired
/// it and whether that user may write.
public struct PairedDevice: Codable, Sendable, Equatable {
    public var token: String
    /// A label for people ("phone", "car display"); never the token.
    public var name: String
    public var uid: UInt32
    public var user: String
    /// The pairing user was a writer on the daemon's socket when the device was paired.
    public var writer: Bool
    public var created: Date
    public var expires: Date
}

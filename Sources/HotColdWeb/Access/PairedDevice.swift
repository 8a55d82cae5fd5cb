#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A device paired with `hotcold web pair`: its session token (kept in the device's cookie),
/// its pairing link's own one-time code until that is opened, who paired it and whether that
/// user may write.
///
/// The link (`/pair?t=LINK`, shown as a QR code, kept in browser histories, sent in the clear
/// on plain HTTP) is not the credential: it works once, within `access.link_minutes`, and hands
/// the device a fresh session token that appears in no URL.
public struct PairedDevice: Codable, Sendable, Equatable {
    public var token: String
    /// The pairing link's code until the link is opened (then nil: it works once).
    public var link: String?
    /// When the link stops working, opened or not.
    public var linkExpires: Date?
    /// A label for people ("phone", "car display"); never the token.
    public var name: String
    public var uid: UInt32
    public var user: String
    /// The pairing user was a writer on the daemon's socket when the device was paired (shown
    /// to people; each write checks the rule again).
    public var writer: Bool
    public var created: Date
    public var expires: Date
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HotColdUnix

/// A device paired with `hotcold web pair`: its session token (kept in the device's cookie),
/// its pairing link's own one-time code until that is opened, who paired it and whether that
/// user may write.
///
/// The link (`/pair?t=LINK`, shown as a QR code, kept in browser histories, sent in the clear
/// on plain HTTP) is not the credential: it works once, within `access.link_minutes`, and hands
/// the device a fresh session token that appears in no URL.
///
/// **Time.** Nothing here is judged by the wall clock, which a box without a real-time clock
/// starts years behind and NTP or the receiver then moves. The link is valid only on the boot
/// it was made on, for `linkSeconds` of that boot's clock (``BootClock``). The session is a
/// duration: `remaining` seconds as counted at `accountedAt`, counted down on the boot clock
/// while hotcold-web runs. A restart on the same boot charges the time in between; after a
/// reboot the time the box was off is not charged (it cannot be measured without trusting the
/// wall clock, and a car's box is off most of the time: a 90-day pairing lasts 90 days of the
/// box running, which is the safer error than a clock jump ending or reviving pairings).
/// `created` is the wall clock's claim, shown to people and compared with nothing.
public struct PairedDevice: Codable, Sendable, Equatable {
    public var token: String
    /// The pairing link's code until the link is opened (then nil: it works once).
    public var link: String?
    /// When the link was made (its boot and the seconds since that boot).
    public var linkMade: BootInstant?
    /// How long the link may be opened in, on the boot clock.
    public var linkSeconds: Double?
    /// A label for people ("phone", "car display"); never the token.
    public var name: String
    public var uid: UInt32
    public var user: String
    /// The pairing user was a writer on the daemon's socket when the device was paired (shown
    /// to people; each write checks the rule again).
    public var writer: Bool
    /// When it was paired, by the box's wall clock (for people only).
    public var created: Date
    /// The session's whole length (`access.token_days`), seconds.
    public var lifetime: Double
    /// Seconds of the session left as of `accountedAt`.
    public var remaining: Double
    /// The boot-clock instant `remaining` was counted at.
    public var accountedAt: BootInstant

    enum CodingKeys: String, CodingKey {
        case token, link, linkMade = "link_made", linkSeconds = "link_seconds", name, uid, user, writer, created, lifetime,
             remaining, accountedAt = "accounted_at"
    }

    /// Seconds of the session left at `now`: what was left when last counted, less the time
    /// since on this boot's clock. Counted on another boot: nothing is charged for the time in
    /// between (see the type's comment). Never more than the whole length.
    public func remaining(at now: BootInstant) -> Double {
        let spent = accountedAt.boot == now.boot ? max(0, now.seconds - accountedAt.seconds) : 0
        return min(lifetime, remaining) - spent
    }

    /// Whether the pairing link still opens at `now`: not opened yet, on the boot it was made
    /// on, within its minutes of that boot's clock.
    public func linkOpens(at now: BootInstant) -> Bool {
        guard link != nil, let made = linkMade, let seconds = linkSeconds,
              let age = BootClock.elapsed(since: made, now: now) else { return false }
        return age < seconds
    }

    /// A link never opened whose time is over (or whose boot is past): its device can never be
    /// used (its token was never handed out).
    func linkLapsed(at now: BootInstant) -> Bool { link != nil && !linkOpens(at: now) }

    /// For people: when the session ends if the box keeps running, by the wall clock now.
    public func expires(at now: BootInstant, wallNow: Date) -> Date {
        wallNow.addingTimeInterval(max(0, remaining(at: now)))
    }

    /// For people: when the link stops opening, by the wall clock now.
    public func linkExpires(at now: BootInstant, wallNow: Date) -> Date? {
        guard link != nil, let made = linkMade, let seconds = linkSeconds else { return nil }
        let age = BootClock.elapsed(since: made, now: now) ?? seconds
        return wallNow.addingTimeInterval(max(0, seconds - age))
    }
}

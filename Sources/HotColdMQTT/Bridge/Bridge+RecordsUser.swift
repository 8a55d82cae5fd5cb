#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HotColdProtocol
#if canImport(Glibc)
import Glibc
#endif

/// The daemon sends a user's RECORD (a rating or a note) only to that user's own connections
/// and to its administrator. Installed, the bridge is neither (systemd's dynamic user
/// `hotcold-mqtt`), so with `[share] records` it would share nothing: it asks the daemon to
/// take its stream's connection as the Unix user named by `[topics] user` (`act_for`, allowed
/// when `hotcold-mqtt` is in the daemon's `[socket] proxies`, as shipped). It is then sent that
/// user's records and no one else's. Run as root, the bridge is the administrator and is
/// sent everyone's; it shares only that user's (``Bridge/takeFriendEvent``).
enum RecordsActing: Equatable {
    case untried
    /// The stream's connections act for this uid.
    case acting(uid: UInt32)
    /// Not needed (root, the user itself, records not shared) or not possible (said once).
    case without
}

extension Bridge {
    /// Sends `act_for` on a new connection when it is wanted; false when this connection must
    /// be dropped (it acts for a user whose reports the daemon would refuse).
    func actForRecordsUser(_ connection: LineClient) -> Bool {
        if case .without = recordsActing { return true }
        guard settings.shareRecords, settings.share.sharesVisits, getuid() != 0 else {
            recordsActing = .without
            return true
        }
        guard let account = getpwnam(settings.user) else {
            log("ratings and notes are not shared: no Unix user here is named \(settings.user) ([topics] user), whose they would be")
            recordsActing = .without
            return true
        }
        let uid = account.pointee.pw_uid
        guard uid != getuid() else {
            recordsActing = .without     // its own records come to it anyway
            return true
        }
        do throws(ClientError) {
            try connection.send(.actFor(ActForRequest(uid: uid)))
            let line = try connection.line(ofClass: ActingReply.wireClass, timeout: 10)
            let acting = try? WireCoding.decode(ActingReply.self, from: line)
            guard acting?.writer == true else {
                // Its reports (a write) would be refused on this connection: start again without.
                log("ratings and notes are not shared: \(settings.user) may not write to the daemon ([socket] allowed_users or allowed_groups)")
                recordsActing = .without
                return false
            }
            if recordsActing != .acting(uid: uid) { log("sharing the ratings and notes of \(settings.user) (the daemon sends this bridge that user's records)") }
            recordsActing = .acting(uid: uid)
        } catch {
            if case .refused(let e) = error, e.code == .notAllowed {
                log("ratings and notes are not shared: the daemon does not let this bridge act for \(settings.user); add its user to [socket] proxies in hotcoldd.toml")
                recordsActing = .without
                return true
            }
            return false    // the connection failed: the next one tries again
        }
        return true
    }
}

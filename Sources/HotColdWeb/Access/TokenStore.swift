#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import HotColdUnix
import Synchronization

/// The paired devices, kept in `STATE/devices.json` so a restart of hotcold-web keeps every
/// pairing.
///
/// The file is hotcold-web's own and is trusted only as such: its directory must be private
/// (``PrivateDirectory``: not a link, hotcold-web's or root's, writable by nobody else), and
/// the file is read through ``TrustedFile`` (no link followed, a regular file of hotcold-web's
/// user or root, not group- or world-writable, at most 1 MiB) and written whole with mode 0600.
/// A file that fails those checks, or does not parse, is set aside as `devices.json.unusable`
/// and hotcold-web starts with no pairings, saying so in `notices` (logged at start). Why not
/// refuse to start: the box is in a car with nobody at a terminal, and its own display (which
/// needs no pairing) should keep working; a forged entry is never honoured either way, and the
/// set-aside file is kept for a person to look at. A state *directory* others can write to is
/// refused outright (the constructor throws): nothing written there could be trusted.
///
/// Times are boot-clock durations, never wall-clock dates (``PairedDevice`` says how).
///
/// Tokens are 256 random bits from the kernel (`SystemRandomNumberGenerator`, getrandom(2)),
/// in base64url; lookups compare in constant time. Only this file and the device's cookie hold
/// a token: nothing here logs one.
public final class TokenStore: Sendable {
    public let path: String
    public let maxDevices: Int
    private let devices: Mutex<[PairedDevice]>
    /// What was found at start that a person should know (a file set aside, pairings carried
    /// over from the old format); one sentence each, for the log.
    public let notices: [String]

    /// The most a devices.json may hold (32 devices take about 16 KiB).
    static let fileLimit = 1 << 20
    /// A session never lasts longer than this, whatever a file says (`token_days` ≤ 3650).
    static let longestLifetime = 3650.0 * 86_400

    public enum Failure: Error, CustomStringConvertible {
        case unreadable(String, String)
        case unwritable(String, String)
        public var description: String {
            switch self {
            case .unreadable(let p, let why): "cannot read the paired devices in \(p): \(why)"
            case .unwritable(let p, let why): "cannot store the paired devices in \(p): \(why)"
            }
        }
    }

    /// Opens (or starts) the store in `directory`. `now` and `wallNow` are the clocks at start
    /// (tests pass their own): `wallNow` is used only to carry an old file's dates over.
    public init(directory: String, maxDevices: Int, now: BootInstant = BootClock.now(), wallNow: Date = Date()) throws(Failure) {
        path = directory + "/devices.json"
        self.maxDevices = maxDevices
        do throws(TrustedFile.Problem) {
            try PrivateDirectory.ensure(directory, mode: 0o700)
        } catch {
            throw .unwritable(directory, "\(error); hotcold-web keeps its pairings only in a directory nobody else can write to")
        }
        var notices: [String] = []
        var loaded: [PairedDevice] = []
        var migrated = false
        switch TrustedFile.read(path, limit: Self.fileLimit) {
        case .failure(.missing): break
        case .failure(let problem):
            notices.append(Self.setAside(path, because: problem.description))
        case .success(let bytes):
            switch Self.decode(bytes, now: now, wallNow: wallNow) {
            case .current(let list): loaded = list
            case .legacy(let list, let dropped):
                loaded = list
                migrated = true
                notices.append("\(path): \(list.count) pairing(s) carried over from the old format, each with the time its date "
                               + "left by the wall clock now, at most its full length\(dropped > 0 ? "; \(dropped) unopened link(s) or ended session(s) dropped" : "")")
            case .unusable(let why):
                notices.append(Self.setAside(path, because: why))
            }
        }
        // Counted afresh from now: a pairing counted on another boot is charged nothing for the
        // time the box was off; one counted earlier on this boot is charged the time since.
        loaded = loaded.compactMap { d in
            var d = d
            d.remaining = min(d.remaining(at: now), Self.longestLifetime)
            d.lifetime = min(d.lifetime, Self.longestLifetime)
            d.accountedAt = now
            return d.remaining > 0 && !d.linkLapsed(at: now) ? d : nil
        }
        if loaded.count > maxDevices { loaded.removeFirst(loaded.count - maxDevices) }
        devices = Mutex(loaded)
        self.notices = notices
        if migrated { try save(loaded) }
    }

    private static func setAside(_ path: String, because why: String) -> String {
        let aside = TrustedFile.setAside(path)
        return "\(why); " + (aside.map { "set aside as \($0)," } ?? "could not be set aside, ignored,") + " starting with no paired devices (pair them again)"
    }

    /// What a devices.json held.
    enum Decoded {
        case current([PairedDevice])
        /// The first format (wall-clock dates): carried over, with how many were dropped.
        case legacy([PairedDevice], dropped: Int)
        case unusable(String)
    }

    /// The file as written since sessions are durations.
    struct FileV2: Codable {
        var format = 2
        var devices: [PairedDevice]
    }

    /// The first format: a bare array with ISO-8601 dates.
    struct LegacyDevice: Decodable {
        var token: String
        var link: String?
        var linkExpires: Date?
        var name: String
        var uid: UInt32
        var user: String
        var writer: Bool
        var created: Date
        var expires: Date
    }

    static func decode(_ bytes: [UInt8], now: BootInstant, wallNow: Date) -> Decoded {
        let data = Data(bytes)
        if let file = try? JSONDecoder.iso8601.decode(FileV2.self, from: data) {
            guard file.format == 2 else { return .unusable("devices.json format \(file.format) is newer than this hotcold-web knows") }
            guard file.devices.allSatisfy({ $0.token.utf8.count == 43 && $0.lifetime.isFinite && $0.remaining.isFinite }) else {
                return .unusable("devices.json holds a malformed device")
            }
            return .current(file.devices)
        }
        do {
            let old = try JSONDecoder.iso8601.decode([LegacyDevice].self, from: data)
            // Conservatively: a link never opened is dropped (which boot it was made on is not
            // known, and its token was never handed out); a session keeps what its date leaves by
            // the wall clock now, never more than its full length (a clock years behind cannot
            // stretch it) and nothing when that is past (a clock ahead can only end it early).
            var kept: [PairedDevice] = []
            for d in old where d.link == nil {
                let lifetime = min(longestLifetime, max(0, d.expires.timeIntervalSince(d.created)))
                let left = min(lifetime, d.expires.timeIntervalSince(wallNow))
                guard left > 0, d.token.utf8.count == 43 else { continue }
                kept.append(PairedDevice(token: d.token, link: nil, linkMade: nil, linkSeconds: nil, name: d.name, uid: d.uid,
                                         user: d.user, writer: d.writer, created: d.created, lifetime: lifetime, remaining: left,
                                         accountedAt: now))
            }
            return .legacy(kept, dropped: old.count - kept.count)
        } catch {
            return .unusable("devices.json does not parse: \(error)")
        }
    }

    /// Mints a session token and a pairing-link code for a new device and stores them before
    /// returning. The link works once, within `linkMinutes` of this boot's clock; the session
    /// lasts `days` of the box running, counted from when the link is opened.
    public func pair(name: String, uid: UInt32, user: String, writer: Bool, days: Int, linkMinutes: Int = 10,
                     now: BootInstant = BootClock.now(), wallNow: Date = Date()) throws(Failure) -> PairedDevice {
        let lifetime = min(Self.longestLifetime, Double(days) * 86_400)
        let device = PairedDevice(token: Self.mint(), link: Self.mint(), linkMade: now, linkSeconds: Double(linkMinutes) * 60,
                                  name: name, uid: uid, user: user, writer: writer, created: wallNow,
                                  lifetime: lifetime, remaining: lifetime, accountedAt: now)
        let list = devices.withLock { list -> [PairedDevice] in
            // Sessions ended and links never opened in time, by the boot clock (never by the
            // wall clock, which a jump moves), are forgotten.
            list.removeAll { $0.remaining(at: now) <= 0 || $0.linkLapsed(at: now) }
            list.append(device)
            if list.count > maxDevices { list.removeFirst(list.count - maxDevices) }
            return list
        }
        try save(list)
        return device
    }

    /// Opens a pairing link: the device whose link code is `link`, if the link has not been
    /// opened and still opens (``PairedDevice/linkOpens(at:)``). The link stops working, and the
    /// device gets a fresh session token (the one it keeps in its cookie) valid from now for
    /// as long as the pairing was made for. Nil for an unknown, used or expired link.
    func redeem(link: String, now: BootInstant = BootClock.now()) throws(Failure) -> PairedDevice? {
        let given = Array(link.utf8)
        guard given.count == 43 else { return nil }
        let fresh = Self.mint()
        let (device, list) = devices.withLock { list -> (PairedDevice?, [PairedDevice]) in
            guard let i = list.firstIndex(where: { d in
                d.link.map { Self.same(Array($0.utf8), given) } == true && d.linkOpens(at: now)
            }) else { return (nil, list) }
            list[i].link = nil
            list[i].linkMade = nil
            list[i].linkSeconds = nil
            list[i].token = fresh
            list[i].remaining = list[i].lifetime
            list[i].accountedAt = now
            return (list[i], list)
        }
        if device != nil { try save(list) }
        return device
    }

    /// 256 random bits from the kernel (getrandom(2)) in base64url: 43 characters.
    static func mint() -> String {
        var bytes = [UInt8](repeating: 0, count: 32)
        var rng = SystemRandomNumberGenerator()
        for i in bytes.indices { bytes[i] = rng.next() }
        return Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// The device holding `token`, if it is paired and its session has time left.
    public func device(token: String, now: BootInstant = BootClock.now()) -> PairedDevice? {
        let given = Array(token.utf8)
        guard given.count == 43 else { return nil }
        return devices.withLock { list in
            list.first { d in Self.same(Array(d.token.utf8), given) && d.remaining(at: now) > 0 }
        }
    }

    /// Counts every session down to `now` and stores the result, forgetting the ones that
    /// ended. hotcold-web does this every ``accountingInterval`` and when it stops, so a reboot
    /// (which cannot charge the time since the last count) leaves at most that much uncharged.
    public func account(now: BootInstant = BootClock.now()) throws(Failure) {
        let list = devices.withLock { list -> [PairedDevice] in
            list = list.compactMap { d in
                var d = d
                d.remaining = d.remaining(at: now)
                d.accountedAt = now
                return d.remaining > 0 && !d.linkLapsed(at: now) ? d : nil
            }
            return list
        }
        try save(list)
    }

    /// How often a running hotcold-web counts the sessions down on disk: one small write a
    /// quarter hour (only while devices are paired), and at most that much left uncharged by a
    /// power cut.
    public static let accountingInterval: Duration = .seconds(900)

    /// Counts the sessions down every `interval` until cancelled (hotcold-web's own loop).
    public func keepAccounts(every interval: Duration = accountingInterval) async {
        while !Task.isCancelled {
            do { try await Task.sleep(for: interval) } catch { return }
            if !all.isEmpty { try? account() }
        }
    }

    /// Removes devices by name; returns how many.
    public func revoke(name: String) throws(Failure) -> Int {
        let (n, list) = devices.withLock { list -> (Int, [PairedDevice]) in
            let before = list.count
            list.removeAll { $0.name == name }
            return (before - list.count, list)
        }
        if n > 0 { try save(list) }
        return n
    }

    public var all: [PairedDevice] { devices.withLock { $0 } }

    /// Constant time in the token's length: no early exit a timing probe could measure.
    static func same(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var diff: UInt8 = 0
        for i in a.indices { diff |= a[i] ^ b[i] }
        return diff == 0
    }

    /// Written whole to a fresh temporary (no link followed), synced and renamed into place
    /// (``TrustedFile/write(_:to:mode:)``): a power cut leaves the old list or the new one.
    private func save(_ list: [PairedDevice]) throws(Failure) {
        let e = JSONEncoder()
        e.dateEncodingStrategy = .iso8601
        e.outputFormatting = [.sortedKeys]
        let data: Data
        do { data = try e.encode(FileV2(devices: list)) } catch { throw .unwritable(path, "\(error)") }
        do throws(TrustedFile.Problem) {
            try TrustedFile.write(Array(data), to: path, mode: 0o600)
        } catch {
            throw .unwritable(path, error.description)
        }
    }
}

extension JSONDecoder {
    fileprivate static var iso8601: JSONDecoder {
        let d = JSONDecoder()
        d.dateDecodingStrategy = .iso8601
        return d
    }
}

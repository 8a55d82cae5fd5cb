#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// The paired devices, kept in `STATE/devices.json` (mode 0600, written whole and renamed into
/// place) so a restart of hotcold-web keeps every pairing.
///
/// Tokens are 256 random bits from the kernel (`SystemRandomNumberGenerator`, getrandom(2)),
/// in base64url; lookups compare in constant time. Only this file and the device's cookie hold
/// a token: nothing here logs one.
public final class TokenStore: Sendable {
    public let path: String
    public let maxDevices: Int
    private let devices: Mutex<[PairedDevice]>

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

    public init(directory: String, maxDevices: Int) throws(Failure) {
        path = directory + "/devices.json"
        self.maxDevices = maxDevices
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch { throw .unwritable(directory, "\(error)") }
        var loaded: [PairedDevice] = []
        if FileManager.default.fileExists(atPath: path) {
            do {
                let data = try Data(contentsOf: URL(fileURLWithPath: path))
                guard data.count <= 1 << 20 else { throw Failure.unreadable(path, "over 1 MiB") }
                loaded = try Self.decoder.decode([PairedDevice].self, from: data)
            } catch let e as Failure { throw e } catch { throw .unreadable(path, "\(error)") }
        }
        devices = Mutex(loaded)
    }

    static let decoder: JSONDecoder = {
        let d = JSONDecoder()
        d.dateDecodingStrategy = .iso8601
        return d
    }()

    /// Mints a session token and a pairing-link code for a new device and stores them before
    /// returning. The link works once, within `linkMinutes`.
    public func pair(name: String, uid: UInt32, user: String, writer: Bool, days: Int, linkMinutes: Int = 10,
                     now: Date = Date()) throws(Failure) -> PairedDevice {
        let device = PairedDevice(token: Self.mint(), link: Self.mint(), linkExpires: now.addingTimeInterval(Double(linkMinutes) * 60),
                                  name: name, uid: uid, user: user, writer: writer, created: now,
                                  expires: now.addingTimeInterval(Double(days) * 86_400))
        let list = devices.withLock { list -> [PairedDevice] in
            // Expired pairings, and links never opened in time, are forgotten.
            list.removeAll { $0.expires <= now || ($0.link != nil && ($0.linkExpires ?? now) <= now) }
            list.append(device)
            if list.count > maxDevices { list.removeFirst(list.count - maxDevices) }
            return list
        }
        try save(list)
        return device
    }

    /// Opens a pairing link: the device whose link code is `link`, if the link has not been
    /// opened and has not expired. The link stops working, and the device gets a fresh session
    /// token (the one it keeps in its cookie) valid from now for as long as the pairing was
    /// made for. Nil for an unknown, used or expired link.
    func redeem(link: String, now: Date = Date()) throws(Failure) -> PairedDevice? {
        let given = Array(link.utf8)
        guard given.count == 43 else { return nil }
        let fresh = Self.mint()
        let (device, list) = devices.withLock { list -> (PairedDevice?, [PairedDevice]) in
            guard let i = list.firstIndex(where: { d in
                d.link.map { Self.same(Array($0.utf8), given) } == true && (d.linkExpires ?? now) > now && d.expires > now
            }) else { return (nil, list) }
            let lasts = list[i].expires.timeIntervalSince(list[i].created)
            list[i].link = nil
            list[i].linkExpires = nil
            list[i].token = fresh
            list[i].created = now
            list[i].expires = now.addingTimeInterval(lasts)
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

    /// The device holding `token`, if it is paired and not expired.
    public func device(token: String, now: Date = Date()) -> PairedDevice? {
        let given = Array(token.utf8)
        guard given.count == 43 else { return nil }
        return devices.withLock { list in
            list.first { d in Self.same(Array(d.token.utf8), given) && d.expires > now }
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

    private func save(_ list: [PairedDevice]) throws(Failure) {
        let e = JSONEncoder()
        e.dateEncodingStrategy = .iso8601
        e.outputFormatting = [.sortedKeys]
        let tmp = path + ".tmp"
        do {
            let data = try e.encode(list)
            try Self.writeSynced(data, to: tmp)
            guard rename(tmp, path) == 0 else { throw Failure.unwritable(path, String(cString: strerror(errno))) }
        } catch let f as Failure { throw f } catch { throw .unwritable(path, "\(error)") }
    }

    /// Writes `data` to a new private file (0600) and syncs it, so the rename that follows
    /// never publishes a list the power cut has not reached the disk with.
    private static func writeSynced(_ data: Data, to file: String) throws(Failure) {
        let fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .unwritable(file, String(cString: strerror(errno))) }
        defer { close(fd) }
        var failure: Int32 = 0
        data.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                let n = write(fd, raw.baseAddress! + done, raw.count - done)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                done += n
            }
        }
        if failure == 0, fsync(fd) != 0 { failure = errno }
        if failure != 0 { throw .unwritable(file, String(cString: strerror(failure))) }
    }
}

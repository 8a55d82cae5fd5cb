import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real Unix user made by `UnixAccounts`.
public struct UnixUser: Sendable {
    public let name: String
    public let uid: UInt32
    public let gid: UInt32                  // its own group's
}

/// Real Unix users and groups for tests of the installed layout and of other users' clients
/// (tests run as root and skip themselves otherwise). Names carry a per-run suffix so concurrent
/// test runs never share an account, and `remove()` (or deinit) deletes everything it created.
///
/// ```swift
/// let accounts = UnixAccounts()
/// defer { accounts.remove() }
/// let group = try accounts.group("hct")
/// let alice = try accounts.user("hca", groups: [group])
/// print(alice.name, alice.uid)
/// ```
public final class UnixAccounts: @unchecked Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        public init(description: String) { self.description = description }
    }

    private let suffix: String
    private var users: [String] = []
    private var groups: [String] = []

    public init() {
        // Short: user names are limited to 32 characters.
        suffix = String(UInt32(truncatingIfNeeded: getpid()), radix: 36) + String(UInt16.random(in: 0...UInt16.max), radix: 36)
    }

    /// Whether accounts can be made and used here (root, with the shadow tools, setpriv and python3).
    public static var available: Bool {
        getuid() == 0 && ["/usr/sbin/useradd", "/usr/sbin/userdel", "/usr/sbin/groupadd", "/usr/bin/setpriv", "/usr/bin/python3"]
            .allSatisfy(FileManager.default.isExecutableFile(atPath:))
    }

    /// Creates a group; returns its name.
    @discardableResult
    public func group(_ base: String) throws -> String {
        let name = "\(base)\(suffix)"
        try run("/usr/sbin/groupadd", ["--system", name])
        groups.append(name)
        return name
    }

    /// Creates a system user with no home and no login shell, with its own group and in `groups`.
    /// Bases are distinct within one `UnixAccounts`.
    @discardableResult
    public func user(_ base: String, groups extra: [String] = []) throws -> UnixUser {
        let name = "\(base)\(suffix)"
        var args = ["--system", "--no-create-home", "--home-dir", "/nonexistent",
                    "--shell", "/usr/sbin/nologin", "--user-group"]
        if !extra.isEmpty { args += ["--groups", extra.joined(separator: ",")] }
        try run("/usr/sbin/useradd", args + [name])
        users.append(name)
        guard let pw = getpwnam(name) else { throw Failure(description: "useradd \(name): no passwd entry afterwards") }
        return UnixUser(name: name, uid: pw.pointee.pw_uid, gid: pw.pointee.pw_gid)
    }

    /// A uid with no passwd entry (54321, or the next free one above it).
    public static func unusedUID() -> UInt32 {
        var uid: UInt32 = 54321
        while getpwuid(uid) != nil { uid += 1 }
        return uid
    }

    /// The command line that runs `executable` as `user` with that user's own groups (as a login
    /// would give them), through util-linux's setpriv.
    public static func asUser(_ user: String, primaryGroup: String? = nil) -> [String] {
        ["--reuid=\(user)", "--regid=\(primaryGroup ?? user)", "--init-groups", "--reset-env", "--"]
    }

    public func gid(ofGroup group: String) -> gid_t? { getgrnam(group).map { $0.pointee.gr_gid } }

    public func remove() {
        for u in users.reversed() { _ = try? run("/usr/sbin/userdel", [u]) }
        for g in groups.reversed() { _ = try? run("/usr/sbin/groupdel", [g]) }
        users = []
        groups = []
    }

    deinit { remove() }

    private func run(_ tool: String, _ args: [String]) throws {
        let r = try Subprocess.run(URL(fileURLWithPath: tool), args)
        guard r.status == 0 else {
            throw Failure(description: "\(tool) \(args.joined(separator: " ")): exit \(r.status): \(r.stderr)")
        }
    }
}

import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Real Unix users and groups for tests of the installed layout (tests run as root). Names carry
/// a per-run suffix so concurrent test runs never share an account, and `remove()` deletes
/// everything it created.
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

    /// Whether this process may create accounts (root with useradd available).
    public static var available: Bool {
        getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/sbin/useradd")
    }

    /// Creates a group; returns its name.
    @discardableResult
    public func group(_ base: String) throws -> String {
        let name = "\(base)\(suffix)"
        try run("/usr/sbin/groupadd", ["--system", name])
        groups.append(name)
        return name
    }

    /// Creates a system user with no home and no login shell, in `groups` besides its own.
    @discardableResult
    public func user(_ base: String, groups extra: [String] = []) throws -> String {
        let name = "\(base)\(suffix)"
        var args = ["--system", "--no-create-home", "--home-dir", "/nonexistent",
                    "--shell", "/usr/sbin/nologin", "--user-group"]
        if !extra.isEmpty { args += ["--groups", extra.joined(separator: ",")] }
        try run("/usr/sbin/useradd", args + [name])
        users.append(name)
        return name
    }

    /// The command line that runs `executable` as `user` with that user's own groups (as a login
    /// would give them), through util-linux's setpriv.
    public static func asUser(_ user: String, primaryGroup: String? = nil) -> [String] {
        ["--reuid=\(user)", "--regid=\(primaryGroup ?? user)", "--init-groups", "--reset-env", "--"]
    }

    public func uid(_ user: String) -> uid_t? { getpwnam(user).map { $0.pointee.pw_uid } }
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

import Foundation
import Glibc

/// The sockets systemd passed to this process (`sd_listen_fds_with_names`, spoken directly).
///
/// systemd (or `systemd-socket-activate`) passes `LISTEN_FDS` descriptors starting at 3, with
/// `LISTEN_PID` naming the process they are for and `LISTEN_FDNAMES` their colon-separated names.
///
/// ```swift
/// let activated = try SocketActivation.listenFDs()
/// let endpoint: SocketEndpoint = activated.first(where: \.isUnixStreamListener).map { .adopted(fd: $0.fd) }
///     ?? .path(config.socketPath, mode: 0o660)
/// ```
enum SocketActivation {
    /// The first descriptor systemd passes (`SD_LISTEN_FDS_START`).
    static let firstFD: Int32 = 3

    /// Reads this process's environment, marks the descriptors close-on-exec, and (by default)
    /// unsets the three variables so that child processes do not believe they were activated.
    /// Empty when the process was not socket-activated or the variables are for another process.
    static func listenFDs(unsetEnvironment: Bool = true) throws -> [ActivatedSocket] {
        var env: [String: String] = [:]
        for key in ["LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES"] {
            if let v = getenv(key) { env[key] = String(cString: v) }
        }
        defer {
            if unsetEnvironment {
                for key in ["LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES"] { unsetenv(key) }
            }
        }
        return try listenFDs(environment: env, pid: getpid())
    }

    /// The parsing behind `listenFDs()`, for a given environment and pid. `first` exists for
    /// tests that cannot place descriptors at 3; systemd always uses 3.
    static func listenFDs(environment: [String: String], pid: Int32,
                                 first: Int32 = firstFD) throws -> [ActivatedSocket] {
        guard let pidText = environment["LISTEN_PID"] else { return [] }
        guard let listenPID = Int32(pidText), listenPID > 0 else {
            throw SocketActivationError("LISTEN_PID=\(pidText): not a process id")
        }
        guard listenPID == pid else { return [] }
        guard let countText = environment["LISTEN_FDS"] else { return [] }
        guard let count = Int32(countText), count >= 0, count < 4096 else {
            throw SocketActivationError("LISTEN_FDS=\(countText): not a descriptor count")
        }
        var names = environment["LISTEN_FDNAMES"].map {
            $0.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        } ?? []
        if names.count != Int(count) { names = [] }
        var result: [ActivatedSocket] = []
        for i in 0..<count {
            let fd = first + i
            let flags = fcntl(fd, F_GETFD)
            guard flags >= 0 else {
                throw SocketActivationError("LISTEN_FDS=\(count): descriptor \(fd) is not open")
            }
            _ = fcntl(fd, F_SETFD, flags | FD_CLOEXEC)
            result.append(ActivatedSocket(fd: fd, name: names.isEmpty ? "unknown" : names[Int(i)]))
        }
        return result
    }
}

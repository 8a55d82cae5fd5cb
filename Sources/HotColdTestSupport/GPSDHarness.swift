import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real gpsd for tests, on free loopback ports, in its own process group.
///
/// Two ways to drive it:
/// - ``udp(port:)``: `gpsd -N -n -b -S PORT udp://127.0.0.1:UDPPORT` (package gpsd only). The test
///   sends NMEA sentences as datagrams with ``send(_:)`` at its own pace, once its client is
///   connected: deterministic.
/// - ``gpsfake(log:port:cycle:)``: `gpsfake -1 -q -c CYCLE -P PORT LOG` (package gpsd-clients).
///   gpsfake starts feeding at once, so a client that connects late misses the first sentences;
///   and it keeps running after the log ends, until terminated.
///
/// ```swift
/// let gpsd = try GPSDHarness.udp()
/// defer { gpsd.terminate() }
/// try gpsd.send(NMEA.gga(time: t, latitude: -33.86, longitude: 151.21) + "\r\n")
/// ```
///
/// ``terminate()`` signals the whole process group (gpsfake spawns gpsd) and reaps it; `deinit`
/// does the same, so nothing outlives the test.
public final class GPSDHarness: @unchecked Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The TCP port gpsd serves clients on (127.0.0.1 and ::1).
    public let port: UInt16
    /// The UDP port gpsd reads NMEA from (``udp(port:)`` only).
    public let udpPort: UInt16?
    /// The spawned process (a `/bin/sh` watching gpsd or gpsfake); also the process-group id.
    public let pid: pid_t
    /// Just before the process was spawned: "gpsd coming back"
    /// in reconnect measurements (it includes gpsd's own start-up).
    public let spawnedAt: ContinuousClock.Instant
    /// The command line, for messages.
    public let commandLine: [String]
    /// gpsd's (or gpsfake's) stdout and stderr.
    public let outputPath: String

    private let lock = NSLock()
    private var exited = false
    private let sender: Int32
    /// Write end of the spawned shell's stdin; closing it (or dying) ends the process group.
    private let lifeline: Int32

    /// Starts `gpsd -N -n -b -S PORT udp://127.0.0.1:UDPPORT` and waits until it listens on
    /// both ports. Pass `port` to restart on a port a client is already retrying.
    public static func udp(port: UInt16? = nil, udpPort: UInt16? = nil,
                           timeout: TimeInterval = 30) throws -> GPSDHarness {
        // A port found free can be taken before gpsd binds it (another test's server, or a
        // client's ephemeral port when many tests run at once): ports chosen here are chosen
        // again, up to three times; ports the caller named are its to keep.
        let attempts = port == nil && udpPort == nil ? 3 : 1
        for attempt in 1...attempts {
            let tcp = try port ?? FreePort.tcp()
            let udp = try udpPort ?? FreePort.udp()
            let gpsd = try GPSDHarness(
                arguments: [try executable("gpsd", in: ["/usr/sbin", "/usr/bin", "/sbin"]),
                            "-N", "-n", "-b", "-S", String(tcp), "udp://127.0.0.1:\(udp)"],
                port: tcp, udpPort: udp)
            do {
                try gpsd.waitUntilListening(timeout: attempt < attempts ? timeout / 2 : timeout)
                return gpsd
            } catch where attempt < attempts {
                gpsd.terminate()
            }
        }
        throw Failure(description: "gpsd did not start")    // not reached: the last attempt throws
    }

    /// Starts `gpsfake -1 -q -c CYCLE -P PORT LOG` and waits until its gpsd listens.
    public static func gpsfake(log: URL, port: UInt16? = nil, cycle: Double = 0.05,
                               timeout: TimeInterval = 60) throws -> GPSDHarness {
        let tcp = try port ?? FreePort.tcp()
        let gpsd = try GPSDHarness(
            arguments: [try executable("gpsfake", in: ["/usr/bin", "/usr/local/bin"]),
                        "-1", "-q", "-c", String(cycle), "-P", String(tcp), log.path],
            port: tcp, udpPort: nil)
        try gpsd.waitUntilListening(timeout: timeout)
        return gpsd
    }

    /// True when gpsd and gpsfake are installed (tests skip themselves otherwise).
    public static var gpsdAvailable: Bool {
        (try? executable("gpsd", in: ["/usr/sbin", "/usr/bin", "/sbin"])) != nil
    }
    public static var gpsfakeAvailable: Bool {
        (try? executable("gpsfake", in: ["/usr/bin", "/usr/local/bin"])) != nil
    }

    private init(arguments: [String], port: UInt16, udpPort: UInt16?) throws {
        self.port = port
        self.udpPort = udpPort
        self.commandLine = arguments
        self.outputPath = FileManager.default.temporaryDirectory
            .appendingPathComponent("hotcold-gpsd-\(port)-\(UUID().uuidString.prefix(6)).log").path
        self.spawnedAt = ContinuousClock.now
        (self.pid, self.lifeline) = try Self.spawn(arguments, output: outputPath)
        self.sender = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
    }

    deinit {
        terminate()
        if sender >= 0 { close(sender) }
        close(lifeline)
        try? FileManager.default.removeItem(atPath: outputPath)
    }

    /// Waits until gpsd accepts TCP connections (and, for the UDP source, has bound its UDP
    /// port); throws with gpsd's output if it exits or the deadline passes.
    public func waitUntilListening(timeout: TimeInterval = 30) throws {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while Date() < deadline {
            if hasExited {
                throw Failure(description: "\(commandLine.joined(separator: " ")) exited: \(output)")
            }
            if FreePort.isListeningTCP(port), udpPort.map(FreePort.isBoundUDP) ?? true { return }
            usleep(20_000)
        }
        throw Failure(description: "\(commandLine.joined(separator: " ")) not listening after \(timeout) s: \(output)")
    }

    /// Sends one datagram (one or more NMEA sentences, with their CR LF) to gpsd's UDP source.
    public func send(_ text: String) throws {
        guard let udpPort else { throw Failure(description: "not a UDP-fed gpsd") }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = udpPort.bigEndian
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bytes = Array(text.utf8)
        let sent = withUnsafePointer(to: &addr) { a in
            a.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                sendto(sender, bytes, bytes.count, 0, sa, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        if sent != bytes.count {
            throw Failure(description: "sendto 127.0.0.1:\(udpPort): \(String(cString: strerror(errno)))")
        }
    }

    /// What gpsd wrote to stdout/stderr so far.
    public var output: String {
        (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    }

    /// True once the process has exited (and was reaped).
    public var hasExited: Bool {
        lock.lock()
        defer { lock.unlock() }
        if exited { return true }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid { exited = true }
        return exited
    }

    /// SIGTERM to the process group, SIGKILL after `grace` seconds, then reaps the process and
    /// removes the output file. Idempotent.
    public func terminate(grace: TimeInterval = 2) {
        lock.lock()
        defer { lock.unlock() }
        guard !exited else { return }
        let controlSockets = controlSocketPaths()
        kill(-pid, SIGTERM)
        let deadline = Date(timeIntervalSinceNow: grace)
        var status: Int32 = 0
        while Date() < deadline {
            if waitpid(pid, &status, WNOHANG) == pid { exited = true; break }
            usleep(10_000)
        }
        if !exited {
            kill(-pid, SIGKILL)
            _ = waitpid(pid, &status, 0)
            exited = true
        }
        // gpsfake's gpsd may outlive gpsfake by a moment: make sure the group is gone.
        kill(-pid, SIGKILL)
        // gpsfake gives its gpsd a control socket (-F /tmp/gpsfake-PID.sock) and leaves it behind.
        for path in controlSockets { unlink(path) }
    }

    /// The `-F` control-socket paths on the command lines of this process group's members.
    private func controlSocketPaths() -> [String] {
        var paths: [String] = []
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for entry in entries where entry.allSatisfy(\.isNumber) {
            // /proc/PID/stat: "pid (comm) state ppid pgrp ..."; comm may hold spaces, so split after ")".
            guard let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let end = stat.lastIndex(of: ")") else { continue }
            let fields = stat[stat.index(after: end)...].split(separator: " ")
            guard fields.count > 2, Int32(fields[2]) == pid,
                  let raw = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else { continue }
            let args = raw.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            if let i = args.firstIndex(of: "-F"), i + 1 < args.count { paths.append(args[i + 1]) }
        }
        return paths
    }

    /// SIGKILL, no grace: gpsd vanishes as on a crash. The process is reaped.
    public func kill9() {
        lock.lock()
        defer { lock.unlock() }
        guard !exited else { return }
        let controlSockets = controlSocketPaths()
        kill(-pid, SIGKILL)
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
        exited = true
        for path in controlSockets { unlink(path) }
    }

    private static func executable(_ name: String, in dirs: [String]) throws -> String {
        for dir in dirs {
            let path = dir + "/" + name
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        throw Failure(description: "\(name) not found in \(dirs.joined(separator: ", ")) (install gpsd / gpsd-clients)")
    }

    /// Runs `arguments` under `/bin/sh` in a new process group, stdout+stderr to `output`.
    ///
    /// The shell's stdin is a socket whose other end only this process holds (close-on-exec): if
    /// the test process dies without ``terminate()`` (a crash), the shell reads EOF and the
    /// shell kills its process group, so no gpsd outlives the tests.
    private static func spawn(_ arguments: [String], output: String) throws -> (pid_t, Int32) {
        var fds: [Int32] = [0, 0]
        // A socket pair rather than pipe2 (not exported by Glibc here): atomically close-on-exec.
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        guard socketpair(AF_UNIX, type, 0, &fds) == 0 else {
            throw Failure(description: "socketpair: \(String(cString: strerror(errno)))")
        }
        let (readEnd, writeEnd) = (fds[0], fds[1])
        defer { close(readEnd) }

        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK))
        posix_spawnattr_setpgroup(&attr, 0)
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attr, &noSignals)

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, readEnd, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)

        // $0 is the shell's name; "$@" the command. A background job's stdin would be /dev/null,
        // so the watcher reads the socket through fd 3; nothing else keeps it open.
        let script = """
            exec 3<&0
            "$@" </dev/null 3<&- & child=$!
            { read -r _ <&3; kill -KILL 0; } &
            exec 3<&-
            wait "$child"
            """
        let shellArguments = ["/bin/sh", "-c", script, "hotcold-gpsd"] + arguments
        let argv: [UnsafeMutablePointer<CChar>?] = shellArguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, "/bin/sh", &actions, &attr, argv, environ)
        guard rc == 0 else {
            close(writeEnd)
            throw Failure(description: "posix_spawn \(arguments[0]): \(String(cString: strerror(rc)))")
        }
        return (pid, writeEnd)
    }
}

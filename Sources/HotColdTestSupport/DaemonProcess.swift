import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real `hotcoldd` started as a subprocess for end-to-end tests, with its own socket, log
/// and database in a temporary directory.
public final class DaemonProcess: @unchecked Sendable {
    public let process = Process()
    public let dir: TemporaryDirectory
    public let socketPath: String
    public let logPath: String
    public let dbPath: String
    private let stderrPath: String
    /// Started through a wrapper that forks hotcoldd.
    private let wrapped: Bool

    /// Starts `hotcoldd` with `arguments` plus `--socket/--log/--db` in a fresh directory and
    /// waits until the socket exists (unless `waitForSocket` is false).
    /// `wrapper`: a command that runs `hotcoldd` (e.g. `["/usr/bin/faketime", "-f", "-5y"]`: a
    /// box whose clock is years out). faketime forks the daemon and waits for it, so signals and
    /// `stop` go to that child, not to the wrapper (which would leave the daemon running).
    public init(arguments: [String], environment: [String: String] = [:], waitForSocket: Bool = true,
                executable: URL? = nil, extraFiles: Bool = true, wrapper: [String] = []) throws {
        dir = try TemporaryDirectory("hotcoldd")
        socketPath = dir.path("hc.sock")
        logPath = dir.path("events.jsonl")
        dbPath = dir.path("hc.sqlite")
        stderrPath = dir.path("stderr.txt")
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
        let daemon = executable ?? Binaries.url("hotcoldd")
        let args = (extraFiles ? ["--socket", socketPath, "--log", logPath, "--db", dbPath] : []) + arguments
        wrapped = !wrapper.isEmpty
        if let command = wrapper.first {
            process.executableURL = URL(fileURLWithPath: command)
            process.arguments = Array(wrapper.dropFirst()) + [daemon.path] + args
        } else {
            process.executableURL = daemon
            process.arguments = args
        }
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        process.environment = env
        process.standardError = FileHandle(forWritingAtPath: stderrPath)
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        if waitForSocket { try waitFor(socketPath) }
    }

    public func waitFor(_ path: String, timeout: TimeInterval = 20) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !FileManager.default.fileExists(atPath: path) {
            if !process.isRunning { throw TestFailure("hotcoldd exited \(process.terminationStatus): \(stderr)") }
            if Date() > deadline { throw TestFailure("no \(path) after \(timeout) s: \(stderr)") }
            usleep(20_000)
        }
        // The file appears at bind(2), a moment before listen(2): wait until it answers (a
        // connection that is accepted and dropped at once costs the daemon nothing).
        if path == socketPath {
            while (try? LineClient(path: path)) == nil {
                if !process.isRunning { throw TestFailure("hotcoldd exited \(process.terminationStatus): \(stderr)") }
                if Date() > deadline { throw TestFailure("\(path) refused connections for \(timeout) s: \(stderr)") }
                usleep(20_000)
            }
        }
    }

    public var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }
    /// The daemon's own process: the wrapper's child when there is a wrapper (the wrapper
    /// itself while the child is not there yet, or is gone).
    public var pid: Int32 {
        let wrapper = process.processIdentifier
        guard wrapped else { return wrapper }
        return Self.children(of: wrapper).first ?? wrapper
    }

    public func signal(_ sig: Int32) { kill(pid, sig) }

    /// The processes whose parent is `parent` (from /proc/PID/stat).
    static func children(of parent: Int32) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { p in
            guard let stat = try? String(contentsOfFile: "/proc/\(p)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return false }
            // "PID (comm) STATE PPID …": comm may hold spaces, so read after its last ')'.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 1 && Int32(fields[1]) == parent
        }.sorted()
    }

    /// Waits for exit; returns the status, or nil on timeout.
    @discardableResult
    public func waitForExit(timeout: TimeInterval = 30) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            if Date() > deadline { return nil }
            usleep(10_000)
        }
        return process.terminationStatus
    }

    public func connect() throws -> LineClient { try LineClient(path: socketPath) }

    /// The event log's lines.
    public var logLines: [String] {
        ((try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// Stops the daemon (SIGTERM, then SIGKILL) and removes the directory.
    public func stop() {
        if process.isRunning {
            signal(SIGTERM)
            if waitForExit(timeout: 10) == nil { signal(SIGKILL); waitForExit(timeout: 3) }
        }
        // A wrapper gone first (killed by the test) may leave its child behind: never a daemon
        // outliving its test.
        if wrapped { for child in Self.children(of: process.processIdentifier) { kill(child, SIGKILL) } }
        dir.remove()
    }
}

import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real terminal for tests of full-screen programs: a detached tmux session of a given size
/// on a private server (`tmux -L NAME`), so tests neither see nor disturb anyone's tmux.
///
/// ```swift
/// let tmux = try TmuxSession(width: 60, height: 20, command: "hotcold watch --screen")
/// defer { tmux.kill() }
/// let screen = try tmux.waitFor { $0.contains("hotter") }
/// try tmux.sendKeys("q")
/// ```
public final class TmuxSession: @unchecked Sendable {
    public let server: String
    public static let executable = URL(fileURLWithPath: "/usr/bin/tmux")

    /// Starts `command` (run by /bin/sh) in a new detached session of `width`×`height`.
    public init(width: Int, height: Int, command: String, environment: [String: String] = [:]) throws {
        server = "hc-\(getpid())-\(UUID().uuidString.prefix(8))"
        var args = ["new-session", "-d", "-x", "\(width)", "-y", "\(height)"]
        for (k, v) in environment.sorted(by: { $0.key < $1.key }) { args += ["-e", "\(k)=\(v)"] }
        try tmux(args + [command])
    }

    /// Runs `tmux -L SERVER ARGS`; throws with tmux's output when it fails.
    @discardableResult
    public func tmux(_ args: [String]) throws -> String {
        let r = try Self.spawn(["-L", server] + args)
        guard r.status == 0 else { throw TestFailure("tmux \(args.joined(separator: " ")): \(r.output)") }
        return r.output
    }

    /// posix_spawn with an empty signal mask and default signal actions, output to a file.
    ///
    /// Not `Process`: the tmux server it forks would inherit the test runner's blocked signals
    /// (SIGTERM among them, and so would the program under test), and `Process` was seen to
    /// wait forever on the forking client.
    static func spawn(_ args: [String]) throws -> (status: Int32, output: String) {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("tmux-\(UUID().uuidString)").path
        defer { unlink(out) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attr, &none)
        posix_spawnattr_setsigdefault(&attr, &all)
        posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([executable.path] + args).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, executable.path, &actions, &attr, argv, environ)
        guard rc == 0 else { throw TestFailure("cannot run tmux: \(String(cString: strerror(rc)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let output = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
        // Exited normally: the exit code; killed: 128 + the signal.
        let code = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return (code, output)
    }

    /// The visible pane as text, one string per row (`escapes`: with colours and attributes).
    public func capture(escapes: Bool = false) throws -> [String] {
        let out = try tmux(["capture-pane", "-p"] + (escapes ? ["-e"] : []))
        var rows = out.components(separatedBy: "\n")
        if rows.last == "" { rows.removeLast() }
        return rows
    }

    /// A tmux format value for the pane, such as `#{alternate_on}` or `#{cursor_flag}`.
    public func display(_ format: String) throws -> String {
        try tmux(["display-message", "-p", format]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    public func sendKeys(_ keys: String...) throws { try tmux(["send-keys"] + keys) }

    public func resize(width: Int, height: Int) throws {
        try tmux(["resize-window", "-x", "\(width)", "-y", "\(height)"])
    }

    /// Captures until `done` holds for the screen, or throws after `timeout` with the last screen.
    @discardableResult
    public func waitFor(timeout: TimeInterval = 20, _ done: ([String]) -> Bool) throws -> [String] {
        let deadline = Date().addingTimeInterval(timeout)
        var last: [String] = []
        while Date() < deadline {
            last = try capture()
            if done(last) { return last }
            usleep(100_000)
        }
        throw TestFailure("screen never matched in \(timeout) s; last screen:\n\(last.joined(separator: "\n"))")
    }

    /// Stops the private server and everything in it.
    public func kill() { _ = try? Self.spawn(["-L", server, "kill-server"]) }
}

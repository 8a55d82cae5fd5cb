import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A child process run to its end, with what the kernel measured of it, or killed at a
/// wall-clock or memory limit so that a runaway never takes the machine. Spawned with
/// posix_spawn and reaped here, not by Foundation's `Process`, so the rusage is the child's own.
///
/// CPU time is wait4's rusage. Peak RSS is the largest VmHWM read from /proc while it runs
/// (every 10 ms), not rusage's ru_maxrss: posix_spawn's child shares the test runner's memory
/// until exec, and Linux keeps that memory's high-water mark in the child's ru_maxrss.
///
/// ```swift
/// let m = try MeasuredProcess.run(Binaries.url("hotcold-sync"), ["--once"], stderr: dir.path("err"), killAfter: 20)
/// #expect(m.peakRSSBytes < 64 << 20)
/// ```
struct MeasuredProcess {
    /// The exit status, or nil when a signal ended it.
    var status: Int32?
    /// True when this harness killed it at a limit.
    var killed: Bool
    var wallSeconds: Double
    var cpuSeconds: Double
    var peakRSSBytes: Int
    var stderr: String

    var summary: String {
        String(format: "exit %@, wall %.2f s, CPU %.2f s, peak RSS %.1f MiB%@",
               status.map { "\($0)" } ?? "by signal", wallSeconds, cpuSeconds, Double(peakRSSBytes) / 1_048_576,
               killed ? " (killed at the limit)" : "")
    }

    struct Failure: Error, CustomStringConvertible { var description: String }

    /// `signal`: sent once, `after` seconds from the start (SIGTERM, to see it stop).
    static func run(_ executable: URL, _ arguments: [String], stderr stderrPath: String,
                    killAfter: Double, killAboveRSS: Int = 1 << 30,
                    signal: (number: Int32, after: Double)? = nil) throws -> MeasuredProcess {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        // The test runner blocks some signals; the child starts with none blocked.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))

        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "CREDENTIALS_DIRECTORY")
        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }

        var pid: pid_t = 0
        let started = Date()
        let rc = posix_spawn(&pid, executable.path, &actions, &attributes, argv, envp)
        guard rc == 0 else { throw Failure(description: "cannot start \(executable.path): \(String(cString: strerror(rc)))") }

        var status: Int32 = 0
        var usage = rusage()
        var killed = false
        var signalled = false
        var peak = 0
        while true {
            let r = wait4(pid, &status, WNOHANG, &usage)
            if r == pid { break }
            if r < 0 && errno != EINTR { throw Failure(description: "wait4: \(String(cString: strerror(errno)))") }
            let (resident, highWater) = memory(pid)
            peak = max(peak, highWater)
            if let signal, !signalled, Date().timeIntervalSince(started) >= signal.after {
                kill(pid, signal.number)
                signalled = true
            }
            if !killed, Date().timeIntervalSince(started) > killAfter || resident > killAboveRSS {
                kill(pid, SIGKILL)
                killed = true
            }
            usleep(10_000)
        }
        let wall = Date().timeIntervalSince(started)
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        let exited = (status & 0x7f) == 0
        return MeasuredProcess(status: exited ? (status >> 8) & 0xff : nil, killed: killed, wallSeconds: wall,
                               cpuSeconds: seconds(usage.ru_utime) + seconds(usage.ru_stime),
                               peakRSSBytes: peak,
                               stderr: (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "")
    }

    /// VmRSS and VmHWM (its peak) of a running process in bytes, 0 when unknown (or gone).
    static func memory(_ pid: pid_t) -> (resident: Int, highWater: Int) {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return (0, 0) }
        func field(_ name: String) -> Int {
            guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }),
                  let kib = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first.flatMap({ Int($0) }) else { return 0 }
            return kib * 1024
        }
        return (field("VmRSS"), field("VmHWM"))
    }
}

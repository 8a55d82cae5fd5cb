import Foundation
import Glibc
import Synchronization

/// Tells systemd about the daemon's state through `$NOTIFY_SOCKET` (the `sd_notify`
/// protocol, spoken directly: one datagram of `KEY=VALUE` lines to an `AF_UNIX` socket,
/// a path or an abstract `@name`). Without `NOTIFY_SOCKET` every call does nothing, so the
/// daemon can call it unconditionally. Sends never block (`MSG_DONTWAIT`); any thread.
///
/// The watchdog: systemd sets `WATCHDOG_USEC` (and `WATCHDOG_PID`) when the unit has
/// `WatchdogSec=`. Ping at `watchdogPingInterval` (half the limit), from the loop whose
/// liveness matters; `watchdogIfDue()` makes calling it on every fix cheap.
///
/// ```swift
/// let notifier = SystemdNotifier()
/// notifier.ready(status: "waiting for gpsd")
/// notifier.status("tracking 3 targets")
/// notifier.watchdogIfDue()          // from the engine loop, as often as you like
/// notifier.stopping()
/// ```
public final class SystemdNotifier: Sendable {
    /// `$NOTIFY_SOCKET` as given; nil when not run by systemd (or the address is unusable).
    let socketPath: String?
    /// The watchdog limit from `WATCHDOG_USEC`, nil when there is no watchdog for this process.
    let watchdogInterval: Duration?
    private let fd: Int32
    private let address: UnixSocketAddress?
    private let clock = ContinuousClock()
    private let lastPing = Mutex<ContinuousClock.Instant?>(nil)

    /// Reads `NOTIFY_SOCKET`, `WATCHDOG_USEC` and `WATCHDOG_PID` from `environment`.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment,
                pid: Int32 = getpid()) {
        watchdogInterval = SystemdNotifier.watchdogInterval(environment: environment, pid: pid)
        if let path = environment["NOTIFY_SOCKET"], path.hasPrefix("/") || path.hasPrefix("@"),
           let address = UnixSocketAddress(path) {
            let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            self.fd = fd
            self.address = fd >= 0 ? address : nil
            self.socketPath = fd >= 0 ? path : nil
        } else {
            fd = -1
            address = nil
            socketPath = nil
        }
    }

    deinit {
        if fd >= 0 { Glibc.close(fd) }
    }

    var isEnabled: Bool { address != nil }

    /// Half the watchdog limit: how often to send `WATCHDOG=1`.
    var watchdogPingInterval: Duration? { watchdogInterval.map { $0 / 2 } }

    /// Sends one notification, e.g. `"READY=1\nSTATUS=tracking"`. False when disabled or refused.
    @discardableResult
    public func send(_ state: String) -> Bool {
        guard let address else { return false }
        let bytes = Array(state.utf8)
        let n = bytes.withUnsafeBytes { raw in
            address.withSockaddr { sa, len in
                sendto(fd, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT), sa, len)
            }
        }
        return n == bytes.count
    }

    /// `READY=1`, optionally with a `STATUS=` line.
    @discardableResult
    func ready(status: String? = nil) -> Bool {
        send("READY=1" + (status.map { "\nSTATUS=" + SystemdNotifier.oneLine($0) } ?? ""))
    }

    /// `STATUS=…`: the free-form line `systemctl status` shows.
    @discardableResult
    func status(_ text: String) -> Bool { send("STATUS=" + SystemdNotifier.oneLine(text)) }

    /// `STOPPING=1`: shutdown has begun.
    @discardableResult
    func stopping() -> Bool { send("STOPPING=1") }

    /// `RELOADING=1` with `MONOTONIC_USEC`; send `ready()` when the reload is done.
    @discardableResult
    func reloading() -> Bool {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        let usec = UInt64(ts.tv_sec) * 1_000_000 + UInt64(ts.tv_nsec) / 1000
        return send("RELOADING=1\nMONOTONIC_USEC=\(usec)")
    }

    /// `WATCHDOG=1`, now.
    @discardableResult
    func watchdog() -> Bool {
        lastPing.withLock { $0 = clock.now }
        return send("WATCHDOG=1")
    }

    /// `WATCHDOG=1` if there is a watchdog and the last ping is at least half the limit ago.
    /// Returns whether it pinged.
    @discardableResult
    func watchdogIfDue() -> Bool {
        guard let every = watchdogPingInterval, isEnabled else { return false }
        let now = clock.now
        let due = lastPing.withLock { last -> Bool in
            if let l = last, now - l < every { return false }
            last = now
            return true
        }
        return due && send("WATCHDOG=1")
    }

    /// `WATCHDOG_USEC` as a duration, when set, positive, and `WATCHDOG_PID` (if set) is `pid`.
    static func watchdogInterval(environment: [String: String], pid: Int32 = getpid()) -> Duration? {
        guard let text = environment["WATCHDOG_USEC"], let usec = UInt64(text), usec > 0 else { return nil }
        if let p = environment["WATCHDOG_PID"], Int32(p) != pid { return nil }
        return .microseconds(Int64(clamping: usec))
    }

    private static func oneLine(_ s: String) -> String {
        s.replacingOccurrences(of: "\n", with: " ")
    }
}

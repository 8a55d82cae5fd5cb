#if canImport(Glibc)
import Glibc
#endif

/// Time that no wall-clock jump can move: seconds since this boot (`CLOCK_BOOTTIME`, which
/// also counts suspend), tagged with the kernel's boot id so a saved instant is only ever
/// compared with the clock of the boot it was taken on. A box without a real-time clock
/// starts in the past and jumps when NTP or the receiver sets it; expiries and waits kept
/// here are not fooled by either jump.
///
/// ```swift
/// let made = BootClock.now()
/// …
/// if let age = BootClock.elapsed(since: made), age < 600 { … }   // nil: made before a reboot
/// ```
public struct BootInstant: Codable, Equatable, Hashable, Sendable {
    /// `/proc/sys/kernel/random/boot_id`.
    public var boot: String
    /// Seconds since that boot.
    public var seconds: Double

    public init(boot: String, seconds: Double) {
        self.boot = boot
        self.seconds = seconds
    }
}

public enum BootClock {
    /// This boot's id, read once.
    public static let bootID: String = {
        guard case .success(let bytes) = TrustedFile.read("/proc/sys/kernel/random/boot_id", limit: 64, owner: nil) else {
            return "unknown"
        }
        return String(decoding: bytes, as: UTF8.self).filter { !$0.isWhitespace }
    }()

    /// Seconds since boot.
    public static func seconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_BOOTTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    public static func now() -> BootInstant { BootInstant(boot: bootID, seconds: seconds()) }

    /// Seconds from `instant` to now on this boot's clock; nil when `instant` belongs to
    /// another boot (the time in between cannot be measured) or lies in this boot's future.
    public static func elapsed(since instant: BootInstant, now: BootInstant = now()) -> Double? {
        guard instant.boot == now.boot, now.seconds >= instant.seconds else { return nil }
        return now.seconds - instant.seconds
    }
}

import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Sends a ``SyntheticTrack`` to a UDP port, one receiver cycle (RMC + GGA) every `interval`,
/// on its own thread, until stopped. Track time advances one second per cycle.
///
/// It keeps sending while gpsd is down (the datagrams are lost, as a receiver's output would
/// be), which makes it the "receiver" in reconnect tests: whichever gpsd binds the UDP port
/// next gets the following cycle.
///
/// ```swift
/// let feeder = NMEAFeeder(track: track, udpPort: gpsd.udpPort!, interval: 0.1)
/// feeder.start(); defer { feeder.stop() }
/// ```
public final class NMEAFeeder: @unchecked Sendable {
    public let track: SyntheticTrack
    public let udpPort: UInt16
    public let interval: TimeInterval
    private let condition = NSCondition()
    private var stopping = false
    private var running = false
    private var cycles = 0

    public init(track: SyntheticTrack, udpPort: UInt16, interval: TimeInterval = 0.1) {
        self.track = track
        self.udpPort = udpPort
        self.interval = interval
    }

    deinit { stop() }

    /// Cycles sent so far (the next cycle's track second).
    public var sent: Int {
        condition.lock()
        defer { condition.unlock() }
        return cycles
    }

    public func start() {
        condition.lock()
        guard !running else { condition.unlock(); return }
        running = true
        condition.unlock()
        let thread = Thread { [self] in
            let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
            defer { close(fd) }
            var addr = sockaddr_in()
            addr.sin_family = sa_family_t(AF_INET)
            addr.sin_port = udpPort.bigEndian
            addr.sin_addr.s_addr = inet_addr("127.0.0.1")
            var second = 0
            condition.lock()
            while !stopping {
                condition.unlock()
                for s in track.sentences(second: second) {
                    let bytes = Array(s.utf8)
                    _ = withUnsafePointer(to: &addr) { a in
                        a.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                            sendto(fd, bytes, bytes.count, 0, sa, socklen_t(MemoryLayout<sockaddr_in>.size))
                        }
                    }
                }
                second += 1
                condition.lock()
                cycles = second
                _ = condition.wait(until: Date(timeIntervalSinceNow: interval))
            }
            running = false
            condition.broadcast()
            condition.unlock()
        }
        thread.name = "hotcold.test.nmea-feeder"
        thread.start()
    }

    /// Stops sending and waits for the thread to end.
    public func stop() {
        condition.lock()
        defer { condition.unlock() }
        stopping = true
        condition.broadcast()
        while running { condition.wait() }
    }
}

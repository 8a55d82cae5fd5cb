import Foundation
import Glibc
import Logging
import Synchronization

/// Hands out event sequence numbers that never repeat, across restarts and log rotation.
///
/// Numbers are reserved in blocks, durably, before they are used: a small file in the state
/// directory holds the highest number reserved so far. At start the sequence continues above
/// both that and the last number found in the log, and the first block is reserved before any
/// event leaves; later blocks are reserved in the background once half of the current one is
/// used, so ``next()`` never waits for the disk. A restart skips what was reserved and not
/// used: gaps are fine, repeats are not. ``next()`` never waits for the disk, not even when a
/// burst outruns the reservation or the disk stalls mid-`fsync`: numbers beyond the reservation
/// are given out and counted (`unreserved`: only those could repeat after a crash) until the
/// background write lands.
///
/// When the file cannot be written (read-only, disk full), numbering goes on past the
/// reservation rather than stopping the engine; the problem is reported once, shown in
/// `status` (`unreserved` counts the numbers given out beyond the reservation: only those
/// could repeat after a crash), and the reservation is retried every few seconds.
///
/// ```swift
/// let seq = EventSequence(path: "/var/lib/hotcold/event-seq", logFloor: 41, logger: logger)
/// seq.next()   // 42 (or above what an earlier run reserved)
/// ```
final class EventSequence: Sendable {
    let path: String
    let blockSize: Int
    private let retryInterval: Duration
    private let logger: Logger
    private let writer = DispatchQueue(label: "hotcold.event-seq", qos: .utility)
    private let clock = ContinuousClock()

    /// The largest value the file may hold: far below overflow, and exact in a JSON double.
    static let maximum = 1 << 53

    private struct State {
        var next: Int
        var reservedThrough: Int
        var extending = false
        var lastFailure: ContinuousClock.Instant?
        var error: String?
    }
    private let state: Mutex<State>

    /// What `status` shows.
    struct Status: Sendable, Equatable {
        /// The last number given out (0 before the first event).
        var last: Int
        var reservedThrough: Int
        var unreserved: Int
        var error: String?
    }

    /// Reads the reservation file, continues above it and above `logFloor` (the last number in
    /// the log), and reserves the first block now.
    init(path: String, logFloor: Int = 0, blockSize: Int = 10_000,
                retryInterval: Duration = .seconds(5), logger: Logger) {
        self.path = path
        self.blockSize = max(2, blockSize)
        self.retryInterval = retryInterval
        self.logger = logger
        var start = max(0, min(logFloor, Self.maximum)) + 1
        switch Self.load(path) {
        case .missing:
            break
        case .value(let v):
            start = max(start, v + 1)
        case .unreadable(let problem):
            // Unknown how far an earlier run went: leave a wide gap above what the log shows.
            // The file is kept for a person to look at; a fresh one is written below.
            logger.error("event sequence: \(problem); \(DurableFile.setAside(path)); continuing 1000000 above the log's last number")
            start += 1_000_000
        }
        var s = State(next: start, reservedThrough: start - 1)
        let target = start - 1 + self.blockSize
        if let problem = Self.store(target, at: path) {
            s.error = problem
            s.lastFailure = clock.now
            logger.error("event sequence: \(problem); numbering goes on, but a crash before it can be stored may repeat numbers")
        } else {
            s.reservedThrough = target
        }
        state = Mutex(s)
    }

    /// The next number. Never blocks on I/O; reserves the following block in the background.
    func next() -> Int {
        let (n, reserve) = state.withLock { s -> (Int, Int?) in
            let n = s.next
            s.next += 1
            guard !s.extending, s.next + blockSize / 2 > s.reservedThrough else { return (n, nil) }
            if let f = s.lastFailure, clock.now - f < retryInterval { return (n, nil) }
            s.extending = true
            return (n, max(s.reservedThrough, s.next - 1) + blockSize)
        }
        if let reserve { extend(to: reserve) }
        return n
    }

    /// The number the next event will get, without taking it.
    var peekNext: Int { state.withLock { $0.next } }

    var status: Status {
        state.withLock { s in
            Status(last: s.next - 1, reservedThrough: s.reservedThrough,
                   unreserved: max(0, s.next - 1 - s.reservedThrough), error: s.error)
        }
    }

    /// Waits for a reservation in progress (tests, shutdown).
    func settle() { writer.sync {} }

    private func extend(to target: Int) {
        writer.async { [self] in store(target) }
    }

    /// On the writer queue: writes `target` (never less than what was written before), and
    /// again at once while numbers handed out meanwhile (a burst faster than an `fsync`, or a
    /// disk that stalled) are not covered by half a block.
    private func store(_ target: Int) {
        var target = max(target, state.withLock { $0.reservedThrough })
        while true {
            let problem = Self.store(target, at: path)
            let (report, again) = state.withLock { s -> (String?, Int?) in
                if let problem {
                    s.extending = false
                    let first = s.error == nil
                    s.error = problem
                    s.lastFailure = clock.now
                    return (first ? "event sequence: \(problem); numbering goes on, but a crash before it can be stored may repeat numbers" : nil, nil)
                }
                s.reservedThrough = max(s.reservedThrough, target)
                s.lastFailure = nil
                let again = s.next + blockSize / 2 > s.reservedThrough ? s.next - 1 + blockSize : nil
                if again == nil { s.extending = false }
                guard s.error != nil else { return (nil, again) }
                s.error = nil
                return ("event sequence: reserved through \(target) again", again)
            }
            if let report { problem == nil ? logger.notice("\(report)") : logger.error("\(report)") }
            guard let again else { return }
            target = again
        }
    }

    // MARK: - The file

    enum Loaded: Equatable { case missing, value(Int), unreadable(String) }

    /// The file holds one decimal number and a newline. Read as the daemon's own file (see
    /// ``DurableFile``): a FIFO, a link or someone else's file is `.unreadable`, never waited on.
    static func load(_ path: String) -> Loaded {
        let bytes: [UInt8]
        switch DurableFile.read(path, limit: 64) {
        case .success(let b): bytes = b
        case .failure(.missing): return .missing
        case .failure(let problem): return .unreadable(problem.description)
        }
        let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty, text.count <= 16, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
              let v = Int(text), v <= maximum else {
            return .unreadable("\(path), line 1: expected a whole number of at most 16 digits, found \"\(text.prefix(20))\"")
        }
        return .value(v)
    }

    /// Writes `value` durably: a temporary file, fsync, rename over the old one, fsync the
    /// directory. A crash leaves the old number or the new one, never a torn file.
    /// Returns what went wrong, or nil.
    static func store(_ value: Int, at path: String) -> String? {
        DurableFile.write(Array("\(value)\n".utf8), to: path)
    }
}

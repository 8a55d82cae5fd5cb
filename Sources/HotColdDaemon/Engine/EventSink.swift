import HotColdCore

/// Where published lines go: the socket's watchers and the log. Swappable on reload.
public protocol EventSink: Sendable {
    func publish(line: String, filter: BroadcastFilter)
}

/// The daemon's sink: every line to the log, and to the socket clients whose watch accepts it.
public final class DaemonOutputs: EventSink, @unchecked Sendable {
    // Replaced only on reload, under the lock; read on every publish.
    private let lock = NSLockCompat()
    private var _log: EventLog?
    public let socket: SocketServer?

    public init(socket: SocketServer?, log: EventLog?) {
        self.socket = socket
        self._log = log
    }

    public var log: EventLog? {
        get { lock.withLock { _log } }
        set { lock.withLock { _log = newValue } }
    }

    public func publish(line: String, filter: BroadcastFilter) {
        log?.append(line)
        _ = socket?.broadcast(line: line, filter: filter)
    }
}

import Foundation

/// A small lock wrapper (Foundation's NSLock with a closure helper).
final class NSLockCompat: @unchecked Sendable {
    private let l = NSLock()
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        l.lock()
        defer { l.unlock() }
        return try body()
    }
}

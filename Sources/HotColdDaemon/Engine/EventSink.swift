import Synchronization
import HotColdCore

/// Where published lines go: the socket's watchers and the log. Swappable on reload.
public protocol EventSink: Sendable {
    func publish(line: String, filter: BroadcastFilter)
}

/// The daemon's sink: every line to the log, and to the socket clients whose watch accepts it.
public final class DaemonOutputs: EventSink {
    // Replaced only on reload; read on every publish.
    private let _log: Mutex<EventLog?>
    public let socket: SocketServer?

    public init(socket: SocketServer?, log: EventLog?) {
        self.socket = socket
        self._log = Mutex(log)
    }

    public var log: EventLog? {
        get { _log.withLock { $0 } }
        set { _log.withLock { $0 = newValue } }
    }

    public func publish(line: String, filter: BroadcastFilter) {
        log?.append(line)
        _ = socket?.broadcast(line: line, filter: filter)
    }
}

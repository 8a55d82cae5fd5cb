import Synchronization

/// One accepted connection. `shared` is touched from any thread under its lock; the other
/// mutable fields belong to the event-loop thread alone.
final class ClientConnection: @unchecked Sendable {
    struct Shared {
        var queue: OutputQueue
        var subscription = Subscription()
        /// Set once the connection is to be closed after its queue drains (or the grace ends).
        var closing: Closing?
        /// A command of this client is being answered off the loop (`SocketServer.deferReply`):
        /// its next lines stay unread until the reply is queued.
        var awaitingReply = false
    }

    struct Closing {
        var reason: String
        var isDrop: Bool
    }

    let fd: Int32
    let info: ClientInfo
    let shared: Mutex<Shared>

    // Event-loop thread only.
    /// Bytes read but not yet handled (at most one read's worth while a reply is awaited).
    var framer: LineFramer
    var readClosed = false
    var closeDeadline: ContinuousClock.Instant?

    init(fd: Int32, info: ClientInfo, options: SocketServerOptions) {
        self.fd = fd
        self.info = info
        self.shared = Mutex(Shared(queue: OutputQueue(limit: options.queueLimitBytes)))
        self.framer = LineFramer(maxLineBytes: options.maxLineBytes)
    }
}

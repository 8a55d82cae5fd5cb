import Foundation
import Glibc
import Synchronization

/// The daemon's Unix stream socket: newline-delimited JSON in both directions.
///
/// The server runs its own poll(2) loop on a dedicated thread. Every client has a bounded
/// output queue; `broadcast` and `send` only copy a line into those queues and wake the loop,
/// so they never wait for a client and may be called from any thread. A client whose queue
/// overflows (it stopped reading) is dropped: it gets what was queued plus a final
/// `{"class":"ERROR","code":"busy","message":"dropped: client not reading (queue full)"}` if it starts
/// reading within `dropGrace`, then the connection is closed. Input lines longer than
/// `maxLineBytes` or not UTF-8 get an `ERROR` line and are discarded; every other line goes
/// to the `SocketCommandHandler`, whose replies go back to that client.
///
/// ```swift
/// let server = try SocketServer(endpoint: .path("/run/hotcold/hotcold.sock", mode: 0o660))
/// try server.start(handler: Commands(server: server))
/// server.broadcast(line: EventMessage(event).line, filter: BroadcastFilter(event))   // any thread
/// print(server.counters)
/// server.shutdown()   // stop accepting, flush briefly, close, remove the socket file
/// ```
public final class SocketServer: Sendable {
    private enum State {
        case created
        case running(done: DispatchSemaphore)
        case stopped
    }

    private let registry: ClientRegistry
    private let listener: SocketListener
    private let state = Mutex<State>(.created)

    /// The socket's path (for an adopted socket, what `getsockname` reports).
    var path: String? { listener.path }
    /// Whether the server created the socket file, and so removes it on `shutdown()`.
    var createdSocketFile: Bool { listener.created }

    /// Binds or adopts the listening socket now (so errors surface here); serves after `start`.
    init(endpoint: SocketEndpoint, options: SocketServerOptions = SocketServerOptions()) throws {
        registry = try ClientRegistry(options: options)
        switch endpoint {
        case .path(let path, let mode, let group):
            listener = try SocketListener.bind(path: path, mode: mode, group: group)
        case .adopted(let fd):
            listener = try SocketListener.adopt(fd: fd)
        }
    }

    deinit {
        listener.close()
    }

    /// Starts the event-loop thread. Call once.
    func start(handler: some SocketCommandHandler) throws {
        let done = DispatchSemaphore(value: 0)
        try state.withLock { s in
            guard case .created = s else { throw SocketServerError("socket server: already started or shut down") }
            s = .running(done: done)
        }
        let loop = SocketEventLoop(registry: registry, listener: listener, handler: handler)
        let registry = self.registry
        let thread = Thread {
            registry.loopThread.store(UInt(pthread_self()), ordering: .releasing)
            loop.run()
            done.signal()
        }
        thread.name = "hotcold-socket"
        thread.start()
    }

    /// Queues `line` (no trailing newline) for every client the filter selects; returns how
    /// many. Never blocks on a client. Any thread.
    @discardableResult
    func broadcast(line: String, filter: BroadcastFilter) -> Int {
        registry.broadcast(line: line, filter: filter)
    }

    /// Queues lines for one client. False if it is gone, closing, or just overflowed. Any thread.
    @discardableResult
    public func send(to client: ClientID, line: String) -> Bool {
        registry.send(to: client, lines: [line])
    }

    /// Queues several lines for one client, in order. False if it is gone, closing, or overflowed.
    @discardableResult
    public func send(to client: ClientID, lines: [String]) -> Bool {
        registry.send(to: client, lines: lines)
    }

    /// Bytes waiting in a client's output queue (nil if it is gone or closing): lets a sender
    /// of many lines (a replay) pace itself instead of overflowing the queue.
    func queuedBytes(of client: ClientID) -> Int? {
        registry.connection(client)?.shared.withLock { $0.closing == nil ? $0.queue.count : nil }
    }

    /// The per-client output queue's bound, in bytes.
    var queueLimitBytes: Int { registry.options.queueLimitBytes }

    /// Sets what `broadcast` delivers to a client. False if it is gone. Any thread.
    @discardableResult
    public func setWatch(client: ClientID, _ subscription: Subscription) -> Bool {
        registry.setSubscription(subscription, for: client)
    }

    /// A client's subscription, nil if it is gone.
    func subscription(of client: ClientID) -> Subscription? {
        registry.subscription(of: client)
    }

    /// Holds `client`'s input until the returned reply is sent: call it in
    /// `SocketCommandHandler.handle(line:from:)` for a command answered off the loop (see
    /// `DeferredReply`). Every command that changes state is answered this way, so a client
    /// has at most one write in flight.
    public func deferReply(for client: ClientID) -> DeferredReply {
        DeferredReply(client: client, registry: registry)
    }

    /// Charges one write command to the client's Unix user (a token bucket of
    /// `writeBurst` refilled at `writesPerSecond`, shared by all of that user's connections).
    /// Nil when admitted; otherwise the sentence to answer with. Any thread.
    public func chargeWrite(for client: ClientInfo) -> String? {
        registry.chargeWrite(client)
    }

    /// Sends `{"class":"ERROR","code":"busy","message":reason}` after whatever is queued, then closes. Any thread.
    @discardableResult
    public func disconnect(_ client: ClientID, reason: String) -> Bool {
        registry.disconnect(client, reason: reason)
    }

    /// The clients connected now, in connection order.
    var clients: [ClientInfo] { registry.snapshot().map(\.info) }

    var counters: SocketServerCounters { registry.counters }

    /// Stops accepting (the listening socket is closed, and its file removed if this server
    /// created it), writes what is queued for up to `shutdownFlushTimeout`, closes every
    /// client, and returns once the loop thread has finished. Idempotent; any thread. Called
    /// from a handler (the loop thread) it only requests the stop.
    func shutdown() {
        let done: DispatchSemaphore? = state.withLock { s in
            switch s {
            case .created:
                s = .stopped
                return nil
            case .running(let done):
                s = .stopped
                return done
            case .stopped:
                return nil
            }
        }
        guard let done else {
            listener.close()
            return
        }
        registry.stopRequested.store(true, ordering: .releasing)
        registry.waker.wake()
        if registry.loopThread.load(ordering: .acquiring) != UInt(pthread_self()) {
            done.wait()
        }
    }
}

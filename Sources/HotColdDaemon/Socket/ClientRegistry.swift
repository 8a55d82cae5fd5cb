import HotColdCore
import HotColdProtocol
import Synchronization

/// The state `SocketServer`'s callers and its event loop share: the connected clients, their
/// queues and subscriptions, the counters, and the waker. Every method may be called from any
/// thread; none blocks on I/O (the locks are held only to copy bytes into a queue).
final class ClientRegistry: Sendable {
    let options: SocketServerOptions
    let waker: LoopWaker
    /// `options.maxClients`, lowered to stay `descriptorReserve` below `RLIMIT_NOFILE`.
    let maxClients: Int
    let limits: PerUserLimits
    let names: PeerNameResolver
    /// Names resolved off the loop for accepted peers, waiting for the loop to admit them.
    let resolvedPeers = Mutex<[(ClientID, String?)]>([])
    private let clients = Mutex<[ClientID: ClientConnection]>([:])
    let accepted = Atomic<Int>(0)
    let dropped = Atomic<Int>(0)
    let linesIn = Atomic<Int>(0)
    let linesOut = Atomic<Int>(0)
    let refused = Atomic<Int>(0)
    let connectionsRefused = Atomic<Int>(0)
    let writesRefused = Atomic<Int>(0)
    let stopRequested = Atomic<Bool>(false)
    /// `pthread_self()` of the event-loop thread once it runs.
    let loopThread = Atomic<UInt>(0)

    static let dropMessage = "dropped: client not reading (queue full)"
    static let dropLine = OutgoingLine(errorLine(dropMessage))

    init(options: SocketServerOptions) throws {
        self.options = options
        self.waker = try LoopWaker()
        self.names = PeerNameResolver(lookup: options.nameLookup)
        self.maxClients = DescriptorBudget.clientCap(requested: options.maxClients, reserve: options.descriptorReserve)
        self.limits = PerUserLimits(maxConnections: options.maxClientsPerUser, writeBurst: options.writeBurst,
                                    writesPerSecond: options.writesPerSecond)
    }

    /// An `ERROR` the socket layer itself sends (framing, drops, refusals), with its code.
    static func errorLine(_ message: String, code: ErrorCode = .busy) -> String {
        WireCoding.line(ErrorReply(ProtocolError(code, command: nil, message)))
    }

    // MARK: membership (event loop)

    func add(_ c: ClientConnection) { clients.withLock { $0[c.info.id] = c } }
    func remove(_ id: ClientID) { _ = clients.withLock { $0.removeValue(forKey: id) } }
    var count: Int { clients.withLock { $0.count } }
    func snapshot() -> [ClientConnection] {
        clients.withLock { Array($0.values) }.sorted { $0.info.id < $1.info.id }
    }
    func connection(_ id: ClientID) -> ClientConnection? { clients.withLock { $0[id] } }

    // MARK: output (any thread)

    /// Queues lines for one client; a queue overflow marks the client dropped. Returns whether
    /// every line was queued. Does not wake the loop.
    @discardableResult
    func enqueue(_ lines: [String], to c: ClientConnection) -> Bool {
        enqueue(lines.map(OutgoingLine.init), to: c, filter: nil)
    }

    /// The lock is held only to append references to already-encoded lines.
    private func enqueue(_ lines: [OutgoingLine], to c: ClientConnection, filter: BroadcastFilter?) -> Bool {
        var queued = 0
        var nowDropped = false
        let complete = c.shared.withLock { s -> Bool in
            if let filter, !s.subscription.accepts(filter) { return false }
            for line in lines {
                guard s.closing == nil else { return false }
                if s.queue.append(line) {
                    queued += 1
                } else {
                    s.closing = .init(reason: ClientRegistry.dropMessage, isDrop: true)
                    s.queue.appendRegardless(ClientRegistry.dropLine)
                    nowDropped = true
                    return false
                }
            }
            return true
        }
        if queued > 0 { linesOut.add(queued, ordering: .relaxed) }
        if nowDropped {
            dropped.add(1, ordering: .relaxed)
            options.logger.notice("socket: dropping \(c.info): client not reading (queue of \(options.queueLimitBytes) bytes full)")
        }
        return complete
    }

    func broadcast(line: String, filter: BroadcastFilter) -> Int {
        // Hold the registry lock only to copy the list, so accept/close never wait on a broadcast;
        // encode the line once and share it between the queues.
        let targets = clients.withLock { Array($0.values) }
        guard !targets.isEmpty else { return 0 }
        let encoded = [OutgoingLine(line)]
        var reached = 0
        for c in targets where enqueue(encoded, to: c, filter: filter) { reached += 1 }
        if reached > 0 { waker.wake() }
        return reached
    }

    public func send(to id: ClientID, lines: [String]) -> Bool {
        guard let c = connection(id) else { return false }
        let ok = enqueue(lines, to: c)
        waker.wake()
        return ok
    }

    func setSubscription(_ sub: Subscription, for id: ClientID) -> Bool {
        guard let c = connection(id) else { return false }
        c.shared.withLock { $0.subscription = sub }
        waker.wake()  // a client that closed its input may now be done
        return true
    }

    func subscription(of id: ClientID) -> Subscription? {
        connection(id)?.shared.withLock { $0.subscription }
    }

    // MARK: commands answered off the loop (any thread)

    /// Marks `id` as awaiting a reply: the loop reads no more of its lines until `complete`.
    func hold(_ id: ClientID) {
        connection(id)?.shared.withLock { $0.awaitingReply = true }
    }

    /// Queues the reply of a held client and lets the loop read its next line.
    func complete(_ id: ClientID, lines: [String]) {
        guard let c = connection(id) else { return }
        enqueue(lines, to: c)
        c.shared.withLock { $0.awaitingReply = false }
        waker.wake()
    }

    /// Charges one write to the client's user: nil when admitted, else the refusal's text.
    public func chargeWrite(_ client: ClientInfo) -> String? {
        guard let wait = limits.takeWrite(uid: client.uid) else { return nil }
        writesRefused.add(1, ordering: .relaxed)
        let seconds = Double(wait.components.seconds) + Double(wait.components.attoseconds) * 1e-18
        return "\(client.recordedName) (uid \(client.uid)) is over the write rate of \(options.writeBurst) at once and "
            + "\(JSONLine.number(options.writesPerSecond, decimals: 2)) per second (socket.write_burst, socket.writes_per_second); "
            + "try again in \(JSONLine.number(seconds, decimals: 1)) s"
    }

    /// Closes a client once what is queued (ending with an ERROR line giving `reason`) is written.
    public func disconnect(_ id: ClientID, reason: String) -> Bool {
        guard let c = connection(id) else { return false }
        c.shared.withLock { s in
            guard s.closing == nil else { return }
            s.closing = .init(reason: reason, isDrop: false)
            s.queue.appendRegardless(OutgoingLine(ClientRegistry.errorLine(reason)))
        }
        waker.wake()
        return true
    }

    var counters: SocketServerCounters {
        var c = SocketServerCounters()
        c.clients = count
        c.accepted = accepted.load(ordering: .relaxed)
        c.dropped = dropped.load(ordering: .relaxed)
        c.linesIn = linesIn.load(ordering: .relaxed)
        c.linesOut = linesOut.load(ordering: .relaxed)
        c.refused = refused.load(ordering: .relaxed)
        c.connectionsRefused = connectionsRefused.load(ordering: .relaxed)
        c.writesRefused = writesRefused.load(ordering: .relaxed)
        c.maxClients = maxClients
        return c
    }
}

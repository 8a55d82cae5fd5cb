import Foundation
import Glibc
import Synchronization

/// The poll(2) loop behind `SocketServer`, run on one dedicated thread. It accepts, reads,
/// frames and dispatches input, writes queued output and closes connections. Everything
/// here that is not in `ClientRegistry` belongs to that thread.
///
/// It never waits on anything but poll(2): a peer's name is looked up off the loop between
/// accept and greeting (`PeerNameResolver`), and a command answered off the loop holds only
/// its own client: that client's next lines wait, unread, in the kernel's socket buffer
/// until the reply is queued, so a client pipelining thousands of writes slows only itself.
final class SocketEventLoop: @unchecked Sendable {
    private let registry: ClientRegistry
    private let listener: SocketListener
    private let handler: any SocketCommandHandler
    private var options: SocketServerOptions { registry.options }
    private let clock = ContinuousClock()
    private var nextID: UInt64 = 1
    private var listening = true
    private var acceptPausedUntil: ContinuousClock.Instant?
    private var stopDeadline: ContinuousClock.Instant?
    /// Accepted peers whose names are being looked up; not read until admitted.
    private var pending: [ClientID: PendingPeer] = [:]
    private let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)

    init(registry: ClientRegistry, listener: SocketListener, handler: any SocketCommandHandler) {
        self.registry = registry
        self.listener = listener
        self.handler = handler
    }

    deinit { readBuffer.deallocate() }

    public func run() {
        while true {
            let now = clock.now
            if stopDeadline == nil, registry.stopRequested.load(ordering: .acquiring) {
                stopDeadline = now + options.shutdownFlushTimeout
                listening = false
                listener.close()
            }
            let stopping = stopDeadline != nil
            if stopping { closePending() } else { admitResolved() }

            var fds = [pollfd(fd: registry.waker.readFD, events: Int16(POLLIN), revents: 0)]
            var polled: [ClientConnection] = []
            var wakeAt: ContinuousClock.Instant? = stopDeadline
            for c in registry.snapshot() {
                // Lines read earlier and held while a reply was awaited.
                if !stopping { handleBufferedLines(c) }
                let outcome = flush(c)
                let (empty, closing, watching, awaiting) = c.shared.withLock { s in
                    (s.queue.isEmpty, s.closing, s.subscription.watching, s.awaitingReply)
                }
                if case .failed(let code) = outcome {
                    close(c, reason: "write failed: \(String(cString: strerror(code)))")
                    continue
                }
                if let closing {
                    if c.closeDeadline == nil { c.closeDeadline = now + options.dropGrace }
                    if empty || now >= c.closeDeadline! {
                        close(c, reason: closing.reason)
                        continue
                    }
                    wakeAt = min(wakeAt ?? c.closeDeadline!, c.closeDeadline!)
                }
                if let stopDeadline, empty || now >= stopDeadline {
                    close(c, reason: "server shutting down")
                    continue
                }
                if c.readClosed, empty, !watching, !awaiting {
                    close(c, reason: "client closed the connection")
                    continue
                }
                var events: Int16 = 0
                if !c.readClosed, closing == nil, !stopping, !awaiting { events |= Int16(POLLIN) }
                if !empty { events |= Int16(POLLOUT) }
                fds.append(pollfd(fd: c.fd, events: events, revents: 0))
                polled.append(c)
            }
            if stopping, polled.isEmpty { break }

            var listenIndex: Int?
            if listening {
                if let until = acceptPausedUntil, now < until {
                    wakeAt = min(wakeAt ?? until, until)
                } else {
                    acceptPausedUntil = nil
                    listenIndex = fds.count
                    fds.append(pollfd(fd: listener.fd, events: Int16(POLLIN), revents: 0))
                }
            }

            var timeout: Int32 = -1
            if let wakeAt {
                let ms = (wakeAt - now) / .milliseconds(1)
                timeout = Int32(max(0, min(ms.rounded(.up), 60_000)))
            }
            let n = poll(&fds, nfds_t(fds.count), timeout)
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EINVAL {
                    // More descriptors than RLIMIT_NOFILE allows in one poll: cannot happen
                    // while maxClients stays below it, but never spin on it.
                    options.logger.error("socket: poll refused \(fds.count) descriptors")
                }
                options.logger.error("socket: poll failed: \(String(cString: strerror(errno)))")
                usleep(10_000)
                continue
            }
            if fds[0].revents != 0 { registry.waker.drain() }
            for (i, c) in polled.enumerated() {
                let revents = fds[i + 1].revents
                if revents == 0 { continue }
                if revents & Int16(POLLIN) != 0, !readInput(c) { continue }
                if revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 {
                    close(c, reason: "client closed the connection")
                }
            }
            if let listenIndex, fds[listenIndex].revents != 0 { acceptAll() }
        }
        listener.close()
    }

    /// Writes what is queued for `c` without holding its lock during the system call.
    private func flush(_ c: ClientConnection) -> OutputQueue.WriteOutcome {
        while true {
            let (lines, offset) = c.shared.withLock { $0.queue.peek() }
            let (n, outcome) = OutputQueue.write(lines, offset: offset, to: c.fd)
            if n > 0 { c.shared.withLock { $0.queue.consume(n) } }
            // A full batch went out: there may be more behind it.
            if outcome == .drained, lines.count == 64 { continue }
            return outcome
        }
    }

    // MARK: - accept

    private func acceptAll() {
        while true {
            // accept4 is not visible without _GNU_SOURCE; this thread never forks, so setting
            // the flags right after accept leaves no window for a descriptor leak of our own.
            let fd = accept(listener.fd, nil, nil)
            if fd >= 0 {
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            }
            if fd < 0 {
                switch errno {
                case EINTR, ECONNABORTED: continue
                case EAGAIN, EWOULDBLOCK: return
                case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                    options.logger.warning("socket: cannot accept: \(String(cString: strerror(errno))); pausing 100 ms")
                    acceptPausedUntil = clock.now + .milliseconds(100)
                    return
                default:
                    options.logger.error("socket: accept failed: \(String(cString: strerror(errno)))")
                    acceptPausedUntil = clock.now + .milliseconds(100)
                    return
                }
            }
            registry.accepted.add(1, ordering: .relaxed)
            // Both are the kernel's record of the connecting process: no lookups here.
            let cred = PeerCredentials.read(fd)
            let peer = PendingPeer(fd: fd, id: ClientID(rawValue: nextID), pid: cred?.pid ?? 0,
                                   uid: cred?.uid ?? UInt32.max, gid: cred?.gid ?? UInt32.max,
                                   groups: cred == nil ? [] : PeerCredentials.groups(fd) ?? [])
            nextID += 1
            if registry.count + pending.count >= registry.maxClients {
                refuse(peer, "too many clients (\(registry.maxClients)); try again later")
                continue
            }
            guard registry.limits.open(uid: peer.uid) else {
                refuse(peer, "too many connections from uid \(peer.uid) (at most \(registry.limits.maxConnections) per user, "
                       + "socket.max_clients_per_user); close some and try again")
                continue
            }
            if cred == nil {
                admit(peer, name: nil)
            } else if let known = registry.names.cached(peer.uid) {
                admit(peer, name: known)
            } else {
                pending[peer.id] = peer
                let registry = self.registry
                registry.names.resolve(peer.uid) { name in
                    registry.resolvedPeers.withLock { $0.append((peer.id, name)) }
                    registry.waker.wake()
                }
            }
        }
    }

    struct PendingPeer {
        let fd: Int32
        public let id: ClientID
        public let pid: Int32
        public let uid: UInt32
        public let gid: UInt32
        let groups: [UInt32]
    }

    private func refuse(_ peer: PendingPeer, _ reason: String) {
        registry.connectionsRefused.add(1, ordering: .relaxed)
        options.logger.warning("socket: refusing pid \(peer.pid) uid \(peer.uid): \(reason)")
        _ = OutputQueue.write([OutgoingLine(ClientRegistry.errorLine(reason, code: .quota))], offset: 0, to: peer.fd)
        Glibc.close(peer.fd)
    }

    /// A peer whose name is known joins the clients and is greeted.
    private func admit(_ peer: PendingPeer, name: String?) {
        let info = ClientInfo(id: peer.id, pid: peer.pid, uid: peer.uid, gid: peer.gid, groups: peer.groups,
                              userName: name)
        let c = ClientConnection(fd: peer.fd, info: info, options: options)
        registry.add(c)
        options.logger.debug("socket: connected \(info)")
        registry.enqueue(handler.greeting(for: info), to: c)
    }

    private func admitResolved() {
        let done = registry.resolvedPeers.withLock { r -> [(ClientID, String?)] in
            defer { r.removeAll() }
            return r
        }
        for (id, name) in done {
            if let peer = pending.removeValue(forKey: id) { admit(peer, name: name) }
        }
    }

    private func closePending() {
        for peer in pending.values {
            Glibc.close(peer.fd)
            registry.limits.close(uid: peer.uid)
        }
        pending.removeAll()
    }

    // MARK: - input

    /// Whether the client's next line must wait: its last command is being answered off the
    /// loop, or it is being closed.
    private func paused(_ c: ClientConnection) -> Bool {
        c.shared.withLock { $0.awaitingReply || $0.closing != nil }
    }

    /// Handles the complete lines already read, until one is answered off the loop.
    private func handleBufferedLines(_ c: ClientConnection) {
        while !paused(c), let item = c.framer.next() { dispatch(item, from: c) }
    }

    /// Reads what is available (a bounded amount, for fairness) while the client is not
    /// paused. False if the client was closed.
    private func readInput(_ c: ClientConnection) -> Bool {
        for _ in 0..<4 {
            if paused(c) { return true }
            let n = Glibc.read(c.fd, readBuffer.baseAddress, readBuffer.count)
            if n > 0 {
                c.framer.append(UnsafeRawBufferPointer(rebasing: readBuffer[0..<n]))
                handleBufferedLines(c)
                if n < readBuffer.count { return true }
                continue
            }
            if n == 0 {
                c.readClosed = true
                return true
            }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return true
            default:
                close(c, reason: "read failed: \(String(cString: strerror(errno)))")
                return false
            }
        }
        return true
    }

    private func dispatch(_ item: LineFramer.Item, from c: ClientConnection) {
        switch item {
        case .tooLong:
            registry.refused.add(1, ordering: .relaxed)
            registry.enqueue([ClientRegistry.errorLine(
                "line too long: over \(options.maxLineBytes) bytes; the line was discarded", code: .tooLarge)], to: c)
        case .line(let bytes):
            if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return }
            guard let line = String(validating: bytes, as: UTF8.self) else {
                registry.refused.add(1, ordering: .relaxed)
                registry.enqueue([ClientRegistry.errorLine("invalid UTF-8 in line; the line was discarded", code: .badJSON)], to: c)
                return
            }
            registry.linesIn.add(1, ordering: .relaxed)
            registry.enqueue(handler.handle(line: line, from: c.info), to: c)
        }
    }

    // MARK: - close

    private func close(_ c: ClientConnection, reason: String) {
        registry.remove(c.info.id)
        Glibc.close(c.fd)
        registry.limits.close(uid: c.info.uid)
        options.logger.debug("socket: closed \(c.info): \(reason)")
        handler.disconnected(c.info, reason: reason)
    }
}

import Foundation
import Glibc
import Synchronization

/// The poll(2) loop behind `SocketServer`, run on one dedicated thread. It accepts, reads,
/// frames and dispatches input, writes queued output and closes connections. Everything
/// here that is not in `ClientRegistry` belongs to that thread.
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
    private let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)

    init(registry: ClientRegistry, listener: SocketListener, handler: any SocketCommandHandler) {
        self.registry = registry
        self.listener = listener
        self.handler = handler
    }

    deinit { readBuffer.deallocate() }

    func run() {
        while true {
            let now = clock.now
            if stopDeadline == nil, registry.stopRequested.load(ordering: .acquiring) {
                stopDeadline = now + options.shutdownFlushTimeout
                listening = false
                listener.close()
            }
            let stopping = stopDeadline != nil

            var fds = [pollfd(fd: registry.waker.readFD, events: Int16(POLLIN), revents: 0)]
            var polled: [ClientConnection] = []
            var wakeAt: ContinuousClock.Instant? = stopDeadline
            for c in registry.snapshot() {
                let outcome = flush(c)
                let (empty, closing, watching) = c.shared.withLock { s in
                    (s.queue.isEmpty, s.closing, s.subscription.watching)
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
                if c.readClosed, empty, !watching {
                    close(c, reason: "client closed the connection")
                    continue
                }
                var events: Int16 = 0
                if !c.readClosed, closing == nil, !stopping { events |= Int16(POLLIN) }
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
            let cred = PeerCredentials.read(fd)
            let uid = cred?.uid ?? UInt32.max
            let info = ClientInfo(id: ClientID(rawValue: nextID), pid: cred?.pid ?? 0, uid: uid,
                                  gid: cred?.gid ?? UInt32.max,
                                  userName: cred == nil ? nil : PeerCredentials.user(uid: uid)?.name)
            nextID += 1
            let c = ClientConnection(fd: fd, info: info, options: options)
            if registry.count >= options.maxClients {
                options.logger.warning("socket: refusing \(info): \(options.maxClients) clients already connected")
                let refusal = OutgoingLine(ClientRegistry.errorLine("too many clients (\(options.maxClients)); try again later", code: .quota))
                _ = OutputQueue.write([refusal], offset: 0, to: fd)
                Glibc.close(fd)
                continue
            }
            registry.add(c)
            options.logger.debug("socket: connected \(info)")
            registry.enqueue(handler.greeting(for: info), to: c)
        }
    }

    // MARK: - input

    /// Reads what is available (a bounded amount, for fairness). False if the client was closed.
    private func readInput(_ c: ClientConnection) -> Bool {
        for _ in 0..<4 {
            let n = Glibc.read(c.fd, readBuffer.baseAddress, readBuffer.count)
            if n > 0 {
                c.framer.feed(UnsafeRawBufferPointer(rebasing: readBuffer[0..<n])) { item in
                    dispatch(item, from: c)
                }
                if c.shared.withLock({ $0.closing != nil }) { return true }
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
        options.logger.debug("socket: closed \(c.info): \(reason)")
        handler.disconnected(c.info, reason: reason)
    }
}

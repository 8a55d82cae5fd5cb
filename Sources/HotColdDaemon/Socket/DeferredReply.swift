import Synchronization

/// The reply to one command that is answered off the socket's loop (a database query or
/// write, a retarget). While it is outstanding the server reads nothing more from that
/// client: at most one such command per connection is in flight, its next lines wait in
/// the kernel's socket buffer, and replies keep the order of the commands.
///
/// Made by `SocketServer.deferReply(for:)` inside `handle(line:from:)`; `send` once, from any
/// thread. A reply dropped without `send` (a bug) answers with an `ERROR` rather than
/// leaving the client waiting for ever.
///
/// ```swift
/// func handle(line: String, from client: ClientInfo) -> [String] {
///     let reply = server.deferReply(for: client.id)
///     work.async { reply.send([try! store.answer(line)]) }
///     return []
/// }
/// ```
public final class DeferredReply: Sendable {
    let client: ClientID
    private let registry: ClientRegistry
    private let sent = Atomic<Bool>(false)

    init(client: ClientID, registry: ClientRegistry) {
        self.client = client
        self.registry = registry
        registry.hold(client)
    }

    /// Queues the reply lines and lets the client's next line be read. Later calls do nothing.
    public func send(_ lines: [String]) {
        guard !sent.exchange(true, ordering: .acquiringAndReleasing) else { return }
        registry.complete(client, lines: lines)
    }

    public func send(_ line: String) { send([line]) }

    deinit {
        if !sent.load(ordering: .acquiring) {
            registry.complete(client, lines: [ClientRegistry.errorLine("internal error: the command ended without a reply", code: .internal)])
        }
    }
}

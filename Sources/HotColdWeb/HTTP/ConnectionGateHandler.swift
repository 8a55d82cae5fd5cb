import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// The ``ConnectionGate`` on one connection: asks it on arrival, tells it when the first
/// request head with a paired device's cookie arrives, and when the connection closes. It sits
/// after the HTTP decoder (Hummingbird's `additionalChannelHandlers`), so it sees request
/// heads, never raw bytes.
///
/// It also names the local user behind an unpaired loopback connection (``LoopbackPeer``),
/// looked up once per connection, in a header of its own (``localUserField``) that the routes
/// read: whatever a client sent under that name is replaced on every request head, so only
/// this handler ever sets it.
final class ConnectionGateHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    let gate: ConnectionGate
    let isPaired: @Sendable (String) -> Bool
    private var id: UInt64?
    private var paired = false
    /// The loopback peer's uid once looked up (nil inside: not found).
    private var localUser: UInt32??

    /// Where the routes find the local user: a decimal uid, or `unknown`.
    static let localUserField = HTTPField.Name("X-Hotcold-Local-User")!

    init(gate: ConnectionGate, isPaired: @escaping @Sendable (String) -> Bool) {
        self.gate = gate
        self.isPaired = isPaired
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let channel = context.channel
        switch gate.open(address: channel.remoteAddress?.ipAddress ?? "?", channel: channel) {
        case .admitted(let id, let evict):
            self.id = id
            evict?.close(promise: nil)
        case .refused:
            // Closed once the pipeline is set up, not in the middle of it.
            channel.eventLoop.execute { channel.close(promise: nil) }
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        if let id { gate.closed(id) }
        id = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let id { gate.closed(id) }
        id = nil
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data) else { return context.fireChannelRead(data) }
        if !paired, let id, let token = Self.token(head.headerFields[values: .cookie]), isPaired(token) {
            paired = true
            gate.paired(id)
        }
        head.headerFields[Self.localUserField] = nil
        if !paired, Self.isLoopback(context.channel.remoteAddress) {
            if localUser == nil {
                localUser = .some(LoopbackPeer.Endpoint(context.channel.remoteAddress).flatMap { peer in
                    LoopbackPeer.Endpoint(context.channel.localAddress).flatMap { LoopbackPeer.uid(peer: peer, server: $0) }
                })
            }
            head.headerFields[Self.localUserField] = (localUser ?? nil).map { String($0) } ?? "unknown"
        }
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    static func isLoopback(_ address: SocketAddress?) -> Bool {
        guard let a = address?.ipAddress else { return false }
        return a == "::1" || a.hasPrefix("127.") || a.hasPrefix("::ffff:127.")
    }

    /// The `hc_token` cookie's value among the Cookie headers.
    static func token(_ headers: [String]) -> String? {
        for h in headers {
            for part in h.split(separator: ";") {
                let kv = part.trimmingBlanks()
                if kv.hasPrefix(WebRoutes.cookieName + "=") { return String(kv.dropFirst(WebRoutes.cookieName.count + 1)) }
            }
        }
        return nil
    }
}

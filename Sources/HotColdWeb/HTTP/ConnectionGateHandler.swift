import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// The ``ConnectionGate`` on one connection: asks it on arrival, tells it when the first
/// request head with a paired device's cookie arrives, and when the connection closes. It sits
/// after the HTTP decoder (Hummingbird's `additionalChannelHandlers`), so it sees request
/// heads, never raw bytes.
final class ConnectionGateHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    let gate: ConnectionGate
    let isPaired: @Sendable (String) -> Bool
    private var id: UInt64?
    private var paired = false

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
        if !paired, let id, case .head(let head) = unwrapInboundIn(data),
           let token = Self.token(head.headerFields[values: .cookie]), isPaired(token) {
            paired = true
            gate.paired(id)
        }
        context.fireChannelRead(data)
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

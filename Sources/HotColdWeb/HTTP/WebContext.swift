import Hummingbird
import NIOCore

/// The request context: Hummingbird's core storage plus the peer's address (loopback peers
/// may read without pairing).
public struct WebContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?
    /// The address the connection arrived at (a `Host` naming it is this page).
    let localAddress: SocketAddress?
    /// The connection itself: a live stream bounds what it holds in flight on it.
    let channel: any Channel

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
        localAddress = source.channel.localAddress
        channel = source.channel
    }

    /// Writes are small JSON commands; anything larger is refused before it is read.
    public var maxUploadSize: Int { 4096 }

    /// The peer's address as text ("127.0.0.1", "::1"); "?" when unknown.
    var peerAddress: String { remoteAddress?.ipAddress ?? "?" }

    var isLoopback: Bool {
        guard let a = remoteAddress?.ipAddress else { return false }
        return a == "::1" || a.hasPrefix("127.") || a.hasPrefix("::ffff:127.")
    }
}

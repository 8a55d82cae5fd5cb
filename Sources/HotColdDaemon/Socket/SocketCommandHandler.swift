/// What the integrator plugs into `SocketServer`: the greeting and the command interpreter.
///
/// All three methods are called on the server's event-loop thread, one at a time, so an
/// implementation needs no locking of its own for state only they touch. They must return
/// quickly: while one runs, no client is read or written. Work that takes longer (a database
/// query or write, a name lookup, the engine) is handed off with `SocketServer.deferReply(for:)`
/// and answered through it: that client's next line is read only once the reply is queued, so
/// one client never has two such commands in flight and its replies keep their order. A
/// command that changes state is first charged with `SocketServer.chargeWrite(for:)`.
///
/// ```swift
/// struct Commands: SocketCommandHandler {
///     let server: SocketServer
///     func greeting(for client: ClientInfo) -> [String] {
///         [#"{"class":"VERSION","release":"0.1","proto_major":1,"proto_minor":0}"#]
///     }
///     func handle(line: String, from client: ClientInfo) -> [String] {
///         if line.contains(#""watch""#) {
///             server.setWatch(client: client.id, Subscription(watching: true))
///             return [#"{"class":"WATCH","enable":true}"#]
///         }
///         return [WireCoding.line(ErrorReply(ProtocolError(.unknownCommand, command: nil, "unknown command")))]
///     }
/// }
/// ```
public protocol SocketCommandHandler: Sendable {
    /// Lines sent to a client as soon as it connects (the `VERSION` object). Default: none.
    func greeting(for client: ClientInfo) -> [String]
    /// One complete, valid UTF-8 input line (without its newline, trailing `\r` removed,
    /// never empty); returns the reply lines, in order, for that client only.
    func handle(line: String, from client: ClientInfo) -> [String]
    /// The connection is gone (closed by either side, dropped, or shut down). Default: nothing.
    func disconnected(_ client: ClientInfo, reason: String)
}

extension SocketCommandHandler {
    func greeting(for client: ClientInfo) -> [String] { [] }
    func disconnected(_ client: ClientInfo, reason: String) {}
}

/// Which commands change state. A write needs authorisation, is charged to its user's write
/// rate (`SocketServer.chargeWrite`), and is answered off the socket's loop with the client's
/// input held (`SocketServer.deferReply`), so each connection has at most one write in flight.
/// Everything else reads, and reads are never rate-limited.
enum CommandClass {
    static let writes: Set<String> = ["hunt", "roam", "store"]

    static func isWrite(_ cmd: String) -> Bool { writes.contains(cmd) }
}

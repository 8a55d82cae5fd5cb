import HotColdProtocol

/// Which commands are charged to their user's write rate (`SocketServer.chargeWrite`): every
/// write (`Command.writes`) except the pieces of an upload, which only stage bytes in a
/// private file; the `import` or `submit` that stores them is charged once; and `report`,
/// which only replaces a service's line in memory; and `friend_fix`, which only moves a friend
/// on the radar (bounded at 200), and comes once a second per friend from the bridge — ten
/// friends would pass the 5-a-second write rate. Every command
/// answered off the loop holds its client's input until its reply is queued, so a connection
/// has at most one write in flight.
enum CommandClass {
    static func chargesWriteRate(_ command: Command) -> Bool {
        command.writes && command != .upload && command != .chunk && command != .report && command != .friendFix
    }
}

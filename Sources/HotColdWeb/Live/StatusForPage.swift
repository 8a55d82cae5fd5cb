import HotColdProtocol

/// The part of the daemon's STATUS a page may see: the GPS, tracking and targets, not the
/// daemon's files, configuration path, clients or companion services (hotcold-web may be a
/// writer, and writers are told the database path).
enum StatusForPage {
    static func line(_ status: StatusReply) -> String {
        var s = status
        s.database = nil
        s.config = nil
        s.socket = nil
        s.log = nil
        s.services = nil
        return WireCoding.line(s)
    }
}

/// Identifies one connection to the `SocketServer` for its lifetime. Never reused within a process.
public struct ClientID: Hashable, Sendable, Comparable, CustomStringConvertible {
    let rawValue: UInt64

    init(rawValue: UInt64) { self.rawValue = rawValue }

    public static func < (a: ClientID, b: ClientID) -> Bool { a.rawValue < b.rawValue }

    public var description: String { "client#\(rawValue)" }
}

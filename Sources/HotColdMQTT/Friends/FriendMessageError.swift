/// Why a message from the broker was not passed on to the daemon: it broke a bound or a rule
/// checked at the edge (size, JSON shape, range, topic). Logged (bounded) and counted.
public struct FriendMessageError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}

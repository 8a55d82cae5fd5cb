/// Why the control socket could not be opened (its lines are the protocol's: `WebControlRequest`
/// and its replies, in HotColdProtocol).
public struct ControlError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

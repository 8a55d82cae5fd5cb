/// `LISTEN_FDS` or `LISTEN_PID` held something systemd would not have written.
public struct SocketActivationError: Error, CustomStringConvertible, Equatable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

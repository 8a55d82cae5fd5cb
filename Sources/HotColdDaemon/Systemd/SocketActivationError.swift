/// `LISTEN_FDS` or `LISTEN_PID` held something systemd would not have written.
struct SocketActivationError: Error, CustomStringConvertible, Equatable {
    var message: String
    init(_ message: String) { self.message = message }
    public var description: String { message }
}

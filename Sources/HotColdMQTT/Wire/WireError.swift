/// A line from the daemon the bridge cannot use: what is wrong, naming the field.
public struct WireError: Error, CustomStringConvertible, Equatable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

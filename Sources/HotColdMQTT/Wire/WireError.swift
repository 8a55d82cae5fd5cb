/// A line from the daemon the bridge cannot use: what is wrong, naming the field.
public struct WireError: Error, CustomStringConvertible, Equatable {
    var message: String
    init(_ message: String) { self.message = message }
    public var description: String { message }
}

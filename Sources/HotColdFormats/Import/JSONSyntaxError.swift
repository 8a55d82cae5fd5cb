/// Where and why a JSON text is malformed; line and column count from 1 (columns in characters).
public struct JSONSyntaxError: Error, Sendable, Equatable {
    public var line: Int
    public var column: Int
    public var message: String
}

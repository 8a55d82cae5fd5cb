/// An error that knows its protocol error code. The daemon sends any such error as an `ERROR`
/// with that code, and `hotcold` ends with the exit status the code maps to, so a failure ends
/// the same way whether it was found in the daemon or in the client working on a file (`--db`).
///
/// ```swift
/// extension StoreError: CodedError {
///     public var code: ErrorCode { self == .noSuchPlace(id) ? .notFound : .badField }
/// }
/// ```
public protocol CodedError: Error, CustomStringConvertible {
    var code: ErrorCode { get }
    /// The request field at fault, when one is (`id`, `stars`).
    var field: String? { get }
    /// True when a file the user named could not be read: the client says "no input" (66),
    /// a case the daemon never meets (it reads no file the user names).
    var isUnreadableInput: Bool { get }
}

extension CodedError {
    public var field: String? { nil }
    public var isUnreadableInput: Bool { false }
}

extension ProtocolError: CodedError {}

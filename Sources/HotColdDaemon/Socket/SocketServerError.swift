/// Why a `SocketServer` could not start.
struct SocketServerError: Error, CustomStringConvertible, Equatable {
    var message: String
    /// The `errno` behind it, when there is one.
    var code: Int32?

    init(_ message: String, code: Int32? = nil) {
        self.message = message
        self.code = code
    }

    static func system(_ what: String, _ code: Int32 = errno) -> SocketServerError {
        SocketServerError("\(what): \(String(cString: strerror(code)))", code: code)
    }

    public var description: String { message }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

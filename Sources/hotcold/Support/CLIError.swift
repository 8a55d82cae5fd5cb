/// A failure the user can act on: printed as one sentence on stderr, exit status 1 (or `code`).
struct CLIError: Error, CustomStringConvertible {
    var description: String
    var code: Int32
    init(_ message: String, code: Int32 = 1) {
        description = message
        self.code = code
    }
}

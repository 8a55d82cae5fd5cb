/// A failure the user can act on: printed as one sentence on stderr ("hotcold COMMAND: …"), the
/// process ending with `code` (see ``ExitStatus``; by default EX_DATAERR, the input is wrong).
struct CLIError: Error, CustomStringConvertible {
    var description: String
    var code: ExitStatus
    init(_ message: String, code: ExitStatus = .dataError) {
        description = message
        self.code = code
    }
}

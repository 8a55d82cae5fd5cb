/// The machine-readable reason in an `ERROR` reply. Stable across minor versions: clients
/// branch on it, people read the `message` beside it.
public enum ErrorCode: String, Codable, Sendable, CaseIterable {
    /// The line is not a JSON object (or not valid JSON at all).
    case badJSON = "bad_json"
    /// `cmd` names no command this daemon knows.
    case unknownCommand = "unknown_command"
    /// A field is missing, of the wrong type, unknown, or not one of its allowed values.
    case badField = "bad_field"
    /// A number is outside its range (or not finite, or not whole where it must be).
    case outOfRange = "out_of_range"
    /// A string, list, nesting or upload is over its cap.
    case tooLarge = "too_large"
    /// The client's Unix user may not do this (see "Who may write").
    case notAllowed = "not_allowed"
    /// The place, upload or download named does not exist.
    case notFound = "not_found"
    /// The daemon cannot take this now (no database open, another upload running); try later.
    case busy
    /// A per-user or per-connection limit is reached.
    case quota
    /// The daemon failed (a database error): not the client's fault.
    case `internal`
}

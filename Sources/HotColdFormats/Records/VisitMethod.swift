/// How a visit came to be recorded.
public enum VisitMethod: String, Codable, Sendable, Hashable {
    /// The daemon saw the user arrive (an ARRIVED event).
    case automatic
    /// The user said so (`hotcold seen ID`).
    case manual
}

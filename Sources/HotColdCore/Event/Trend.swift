/// Whether the hunt is getting hotter (closing in) or colder, judged over a time window.
public enum Trend: String, Sendable, Codable, CaseIterable {
    case hotter, colder, steady, unknown
}

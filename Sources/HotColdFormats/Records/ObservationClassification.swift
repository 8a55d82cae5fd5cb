/// What kind of living thing a field observation is about.
///
/// ```swift
/// ObservationClassification(rawValue: "bird")   // .bird
/// ```
public enum ObservationClassification: String, Codable, Sendable, CaseIterable, Hashable {
    case amphibian, bird, fish, insect, mammal, plant, reptile
}

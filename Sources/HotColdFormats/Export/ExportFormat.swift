/// Formats hotcold writes: places or visits, to share a trip or move to another tool.
public enum ExportFormat: String, Codable, Sendable, CaseIterable {
    case gpx
    case geojson
}

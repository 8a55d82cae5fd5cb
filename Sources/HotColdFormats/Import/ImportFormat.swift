/// The file formats hotcold imports, recognised from content (never from the file name).
public enum ImportFormat: String, Codable, Sendable, CaseIterable {
    /// The bundled catalogue (`{"meta", "things": [...]}`).
    case bigThingsCatalogue = "bigthings-catalogue"
    /// The web API's list (`{"updated", "things": [...]}`).
    case bigThingsAPI = "bigthings-api"
    /// GPX 1.0/1.1 waypoints, with Groundspeak / GSAK / opencaching extensions.
    case gpx
    /// Groundspeak LOC (`<loc>` of `<waypoint>`s): cache codes, names, links.
    case loc
    /// The locations feed (`{"locations": [{name, lat, lng}]}`).
    case locationsFeed = "locations"
    /// Field observations (`{"observations": [...]}`).
    case observations
    /// GeoJSON points.
    case geoJSON = "geojson"
    /// OwnTracks waypoints (the app's `.otrw` export, or a `setWaypoints` command).
    case ownTracksWaypoints = "owntracks-waypoints"
}

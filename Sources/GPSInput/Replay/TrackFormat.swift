/// The kinds of recorded track `TrackReader` understands, told apart by content.
public enum TrackFormat: String, Sendable, CaseIterable {
    /// NMEA 0183 sentences, one or more per line (gpsd's regression logs, `gpspipe -r`).
    case nmea
    /// gpsd JSON objects, one per line (`gpspipe -w`); only `TPV` objects carry fixes.
    case gpsdJSON
    /// GPX 1.0 or 1.1 XML.
    case gpx
}

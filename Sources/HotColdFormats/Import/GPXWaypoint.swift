/// The raw fields of one `<wpt>` as the GPX reader collects them, before interpretation.
package struct GPXWaypoint {
    package var line: Int
    package var index: Int
    package var lat: String?
    package var lon: String?
    package var fields: [String: String] = [:]          // name, desc, cmt, time, url, urlname, sym, type, link
    package var cache: [String: String]?                  // groundspeak:cache children and attributes
    package var logsCount = 0
    package var gsak: [String: String] = [:]
    package var hotcold: [String: String]?                // our own export's extension
    package var tags: [String] = []
}

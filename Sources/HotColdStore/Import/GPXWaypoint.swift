/// The raw fields of one `<wpt>` as the GPX reader collects them, before interpretation.
struct GPXWaypoint {
    var line: Int
    var index: Int
    var lat: String?
    var lon: String?
    var fields: [String: String] = [:]          // name, desc, cmt, time, url, urlname, sym, type, link
    var cache: [String: String]?                  // groundspeak:cache children and attributes
    var logsCount = 0
    var gsak: [String: String] = [:]
    var hotcold: [String: String]?                // our own export's extension
    var tags: [String] = []
}

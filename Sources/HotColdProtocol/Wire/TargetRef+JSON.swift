import HotColdCore

/// A target reference as JSON, for the MQTT bridge's hand-assembled state documents.
extension TargetRef {
    /// `{"id":…,"name":…,"kind":…}`
    var json: String {
        var s = "{\"id\":"
        JSONLine.appendQuoted(id, to: &s)
        s.append(",\"name\":")
        JSONLine.appendQuoted(name, to: &s)
        s.append(",\"kind\":")
        JSONLine.appendQuoted(kind.rawValue, to: &s)
        s.append("}")
        return s
    }
}

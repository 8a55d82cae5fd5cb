/// A problem with one row of an imported file: which row, which field, and why.
///
/// The importers' error for a bad row and the `import` reply's entry for it alike, so it lives
/// with the protocol (which the importers' module links) rather than as a row to be mapped.
///
/// ```swift
/// let i = ImportIssue(row: 483, id: "partiklezoo:8", name: "Big Rocking Horse", field: "lat",
///                     message: "34.820991,138.891842 is outside SA")
/// print(i)   // row 483 "Big Rocking Horse" (partiklezoo:8), lat: 34.820991,138.891842 is outside SA
/// ```
public struct ImportIssue: Error, Codable, Sendable, Equatable, CustomStringConvertible {
    /// 1-based position in the file's list of rows (JSON) or of waypoints (GPX).
    var row: Int?
    /// Line in the file, when the format knows it (GPX).
    var line: Int?
    var id: String?
    var name: String?
    var field: String?
    public var message: String

    public init(row: Int? = nil, line: Int? = nil, id: String? = nil, name: String? = nil,
                field: String? = nil, message: String) {
        self.row = row
        self.line = line
        self.id = id
        self.name = name
        self.field = field
        self.message = message
    }

    public var description: String {
        var parts: [String] = []
        if let row { parts.append("row \(row)") }
        if let line { parts.append("line \(line)") }
        var s = parts.joined(separator: ", ")
        if let name { s += (s.isEmpty ? "" : " ") + "\"\(name)\"" }
        if let id { s += (s.isEmpty ? "" : " ") + "(\(id))" }
        if let field { s += (s.isEmpty ? "" : ", ") + field }
        return s.isEmpty ? message : s + ": " + message
    }
}

/// What an import did (`import`'s result): counts of places (or observations) by stable id, so
/// a second import of the same file reports everything `unchanged`.
public struct ImportReportPayload: Codable, Sendable, Equatable {
    /// The file's name as the client sent it.
    var file: String
    /// The format recognised from the content (`bigthings`, `gpx`, `loc`, …).
    public var format: String
    public var inserted: Int
    public var updated: Int
    public var unchanged: Int
    /// Invalid rows that were left out, with the reason.
    public var skipped: [ImportIssue]
    /// Rows imported (or dropped as duplicates) that deserve a look.
    public var warnings: [ImportIssue]
    /// The full counts, when `skipped` or `warnings` list only the first of them.
    var skippedTotal: Int?
    var warningsTotal: Int?
    /// The id of a download on the same connection holding the whole report, every row listed,
    /// when some were left out here.
    var details: String?

    public init(file: String, format: String, inserted: Int, updated: Int, unchanged: Int, skipped: [ImportIssue],
                warnings: [ImportIssue], skippedTotal: Int?, warningsTotal: Int?, details: String?) {
        self.file = file
        self.format = format
        self.inserted = inserted
        self.updated = updated
        self.unchanged = unchanged
        self.skipped = skipped
        self.warnings = warnings
        self.skippedTotal = skippedTotal
        self.warningsTotal = warningsTotal
        self.details = details
    }
}

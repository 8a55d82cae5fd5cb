import HotColdProtocol

/// What an import did. Counts are of places (or observations) by stable id: a second import
/// of the same file reports everything `unchanged`.
///
/// ```swift
/// let r = try store.importFile(at: url)
/// print(r.inserted, r.updated, r.unchanged, r.skipped.count)
/// ```
public struct ImportReport: Codable, Sendable, Equatable {
    public var file: String
    public var format: ImportFormat
    public var inserted: Int
    public var updated: Int
    public var unchanged: Int
    /// Invalid rows that were left out, with the reason.
    public var skipped: [ImportIssue]
    /// Rows imported (or deliberately dropped as duplicates) that deserve a look.
    public var warnings: [ImportIssue]
    /// How many rows were skipped, when `skipped` lists only the first of them (a summary).
    public var skippedTotal: Int?
    /// How many warnings there were, when `warnings` lists only the first of them.
    public var warningsTotal: Int?
    /// In a summary sent by the daemon: the id of a download (on the same connection) holding
    /// the whole report as JSON, every row listed.
    public var details: String?

    public init(file: String, format: ImportFormat, inserted: Int = 0, updated: Int = 0, unchanged: Int = 0,
                skipped: [ImportIssue] = [], warnings: [ImportIssue] = []) {
        self.file = file
        self.format = format
        self.inserted = inserted
        self.updated = updated
        self.unchanged = unchanged
        self.skipped = skipped
        self.warnings = warnings
    }

    public var total: Int { inserted + updated + unchanged }

    /// The report with at most `maxIssues` skipped rows and warnings listed, and their full
    /// counts in `skippedTotal`/`warningsTotal` when some were left out: what a reply carries,
    /// so a file with 100,000 bad rows cannot make a reply larger than a client's queue.
    public func summarised(maxIssues: Int) -> ImportReport {
        var r = self
        if skipped.count > maxIssues {
            r.skippedTotal = skippedTotal ?? skipped.count
            r.skipped = Array(skipped.prefix(maxIssues))
        }
        if warnings.count > maxIssues {
            r.warningsTotal = warningsTotal ?? warnings.count
            r.warnings = Array(warnings.prefix(maxIssues))
        }
        return r
    }
}

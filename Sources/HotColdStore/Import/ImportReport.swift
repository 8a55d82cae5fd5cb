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
}

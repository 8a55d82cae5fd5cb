import Foundation

/// What applying the server's catalogue did.
public struct CatalogueSyncReport: Codable, Sendable, Equatable {
    public var importReport: ImportReport
    /// Big Things the full list no longer has, newly marked withdrawn.
    public var withdrawn: [String] = []
    /// Withdrawn Big Things the list has again.
    public var reinstated: [String] = []
    /// How many were withdrawn / reinstated, when the lists above hold only the first (a summary).
    public var withdrawnTotal: Int?
    public var reinstatedTotal: Int?
    /// In a summary sent by the daemon: the id of a download (on the same connection) holding
    /// the whole report as JSON.
    public var details: String?

    public init(importReport: ImportReport, withdrawn: [String] = [], reinstated: [String] = []) {
        self.importReport = importReport
        self.withdrawn = withdrawn
        self.reinstated = reinstated
    }

    /// At most `maxRows` ids and issues in each list, with the full counts beside any list cut
    /// short: the reply to `sync catalogue`, which must stay far below a client's queue for a
    /// catalogue of any size.
    public func summarised(maxRows: Int) -> CatalogueSyncReport {
        var r = self
        r.importReport = importReport.summarised(maxIssues: maxRows)
        if withdrawn.count > maxRows {
            r.withdrawnTotal = withdrawnTotal ?? withdrawn.count
            r.withdrawn = Array(withdrawn.prefix(maxRows))
        }
        if reinstated.count > maxRows {
            r.reinstatedTotal = reinstatedTotal ?? reinstated.count
            r.reinstated = Array(reinstated.prefix(maxRows))
        }
        return r
    }
}

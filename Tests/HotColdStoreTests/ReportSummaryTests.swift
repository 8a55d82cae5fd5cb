import Foundation
import HotColdProtocol
import HotColdStore
import HotColdDaemonTesting
import Testing

/// A reply carries a summary of an import or catalogue sync: lists cut to a stated length with
/// the full counts beside them, so a file with 100,000 bad rows cannot make a reply larger than
/// a client's queue.
@Suite(.offCooperativePool) struct ReportSummaryTests {
    func issues(_ n: Int) -> [ImportIssue] {
        (0..<n).map { ImportIssue(id: "row\($0)", name: "Row \($0)", field: "lat", message: "not a latitude") }
    }

    @Test func longListsAreCutAndCounted() throws {
        let full = ImportReport(file: "big.gpx", format: .gpx, inserted: 5, skipped: issues(100_000), warnings: issues(3))
        let s = full.summarised(maxIssues: 100)
        #expect(s.skipped.count == 100 && s.skippedTotal == 100_000)
        #expect(s.warnings.count == 3 && s.warningsTotal == nil)
        #expect(s.inserted == 5)
        let encoded = try JSONEncoder().encode(s)
        #expect(encoded.count < 64 << 10, "\(encoded.count) bytes")
        #expect(try JSONEncoder().encode(full).count > 1 << 20)
    }

    @Test func aCatalogueReportIsSummarisedListByList() {
        let full = CatalogueSyncReport(importReport: ImportReport(file: "api", format: .bigThingsAPI, warnings: issues(150)),
                                       withdrawn: (0..<10_000).map { "api:\($0)" }, reinstated: ["api:x"])
        let s = full.summarised(maxRows: 100)
        #expect(s.withdrawn == Array(full.withdrawn.prefix(100)) && s.withdrawnTotal == 10_000)
        #expect(s.reinstated == ["api:x"] && s.reinstatedTotal == nil)
        #expect(s.importReport.warnings.count == 100 && s.importReport.warningsTotal == 150)
        // A short report is left as it is.
        let small = CatalogueSyncReport(importReport: ImportReport(file: "api", format: .bigThingsAPI), withdrawn: ["a"])
        #expect(small.summarised(maxRows: 100) == small)
    }
}

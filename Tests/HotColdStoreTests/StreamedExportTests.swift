import Foundation
import HotColdStore
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// An export is handed over a page at a time, so the daemon can write a catalogue of any size
/// to a file without holding it: the streamed bytes are the whole export, no piece is larger
/// than a page, and the file imports back as the same places.
@Suite(.offCooperativePool) struct StreamedExportTests {
    @Test(arguments: [ExportFormat.gpx, .geojson])
    func aLargeCatalogueIsWrittenInPages(format: ExportFormat) throws {
        let a = try StoreFixture(); defer { a.remove() }
        let count = 2_600
        try a.store.importData(ImportQuotaTests.catalogue(count, prefix: "p"), file: "big.json", user: a.user)
        var pieces: [Int] = []
        var streamed = Data()
        try a.store.export(format: format, user: a.user) { piece in
            pieces.append(piece.count)
            streamed.append(piece)
        }
        // Header, one piece per 500 places, footer: never the whole catalogue in one piece.
        #expect(pieces.count >= 2 + count / 500)
        #expect(pieces.max()! < streamed.count / 4)
        // The same bytes as the export made whole (but the GPX header's time of writing).
        func timeless(_ d: Data) -> String { String(decoding: d, as: UTF8.self).replacing(/<metadata>.*<\/metadata>/, with: "") }
        #expect(timeless(streamed) == timeless(try a.store.export(format: format, user: a.user)))
        let b = try StoreFixture(); defer { b.remove() }
        let r = try b.store.importData(streamed, file: "export.\(format.rawValue)", user: b.user)
        #expect(r.inserted == count && r.skipped.isEmpty)
        #expect(try b.store.allPlaces().map(\.id) == (try a.store.allPlaces().map(\.id)))
    }

    @Test func aFailingWriterStopsTheExport() throws {
        let a = try StoreFixture(); defer { a.remove() }
        try a.store.importData(ImportQuotaTests.catalogue(1_200, prefix: "p"), file: "big.json", user: a.user)
        struct Full: Error {}
        var calls = 0
        #expect(throws: Full.self) {
            try a.store.export(format: .gpx, user: a.user) { _ in
                calls += 1
                if calls == 2 { throw Full() }
            }
        }
        #expect(calls == 2)
    }
}

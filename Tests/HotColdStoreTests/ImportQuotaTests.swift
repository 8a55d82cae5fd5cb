import Foundation
import HotColdStore
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// `imported_places_per_user`: one user's imports cannot grow the shared store without bound,
/// on a real SQLite file.
@Suite(.offCooperativePool) struct ImportQuotaTests {
    /// A Big Things catalogue of `count` places with ids `api:<prefix><i>`.
    static func catalogue(_ count: Int, prefix: String) -> Data {
        let things = (0..<count).map { i in
            #"{"id": "api:\#(prefix)\#(i)", "name": "Big \#(prefix) \#(i)", "town": "Town", "state": "NSW", "lat": -30.\#(1000 + i), "lon": 153.\#(1000 + i)}"#
        }
        return Data(#"{"updated": "2024-01-01T00:00:00Z", "things": [\#(things.joined(separator: ",\n"))]}"#.utf8)
    }

    func store(limit: Int) throws -> (Store, TemporaryDirectory) {
        var q = StoreQuotas()
        q.importedPlacesPerUser = limit
        let dir = try TemporaryDirectory("hotcold-import-quota")
        return (try Store.open(path: dir.path("q.sqlite"), quotas: q), dir)
    }

    func places(_ s: Store) throws -> Int { try s.allPlaces().count }

    @Test func anImportPastTheQuotaStoresNothingAndNamesIt() throws {
        let (s, dir) = try store(limit: 5); defer { dir.remove() }
        try s.importData(Self.catalogue(3, prefix: "a"), file: "a.json", user: "alice")
        #expect(try places(s) == 3)
        #expect {
            try s.importData(Self.catalogue(3, prefix: "b"), file: "b.json", user: "alice")
        } throws: { e in
            guard case StoreError.quotaReached(let quota, let limit, let user) = e else { return false }
            return quota == "imported_places_per_user" && limit == 5 && user == "alice"
        }
        // All or nothing: none of b's places went in.
        #expect(try places(s) == 3)
        // Re-importing what is there adds nothing, so it is not refused.
        let again = try s.importData(Self.catalogue(3, prefix: "a"), file: "a.json", user: "alice")
        #expect(again.inserted == 0 && again.unchanged == 3)
        // Two more fit exactly.
        try s.importData(Self.catalogue(2, prefix: "c"), file: "c.json", user: "alice")
        #expect(try places(s) == 5)
    }

    @Test func eachUserHasTheirOwnImportQuota() throws {
        let (s, dir) = try store(limit: 4); defer { dir.remove() }
        try s.importData(Self.catalogue(4, prefix: "a"), file: "a.json", user: "alice")
        try s.importData(Self.catalogue(4, prefix: "b"), file: "b.json", user: "bob")
        #expect(try places(s) == 8)
        #expect(throws: StoreError.self) { try s.importData(Self.catalogue(1, prefix: "c"), file: "c.json", user: "bob") }
    }
}

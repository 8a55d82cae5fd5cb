import Foundation
import HotColdWeb
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// The box's zone as the page gets it, read without Foundation's time-zone machinery (so that
/// hotcold-web can run in GMT): `TZ` when it names a zone in zoneinfo, else `/etc/localtime`'s
/// link, else GMT. Against real files: a link made in a temporary directory.
@Suite(.offCooperativePool) struct BoxTimeZoneTests {
    @Test func tzNamingAZoneWinsWithOrWithoutItsColon() {
        #expect(BoxTimeZone.identifier(tz: "Australia/Sydney") == "Australia/Sydney")
        #expect(BoxTimeZone.identifier(tz: ":Australia/Perth") == "Australia/Perth")
    }

    @Test func aTZThatNamesNoZoneFallsBackToTheLocaltimeLink() throws {
        let dir = try TemporaryDirectory("zone"); defer { dir.remove() }
        let link = dir.path("localtime")
        #expect(symlink("/usr/share/zoneinfo/Australia/Darwin", link) == 0)
        for tz in ["AEST-10", "../../etc/passwd", "Nowhere/Atlantis", "", nil] as [String?] {
            #expect(BoxTimeZone.identifier(tz: tz, localtime: link) == "Australia/Darwin", "TZ=\(tz ?? "unset")")
        }
        // Foundation, asked the same, names the same zone.
        let named = TimeZone(identifier: BoxTimeZone.identifier(tz: nil, localtime: link))
        #expect(named?.identifier == "Australia/Darwin")
    }

    @Test func noLinkAndNoTZIsGMT() {
        #expect(BoxTimeZone.identifier(tz: nil, localtime: "/nonexistent/localtime") == "GMT")
    }
}

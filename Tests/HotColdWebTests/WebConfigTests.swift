import Foundation
import HotColdConfig
import HotColdTestSupport
import HotColdDaemonTesting
import Testing
@testable import HotColdWeb

@Suite("hotcold-web.toml", .offCooperativePool)
struct WebConfigTests {
    @Test("the bundled file documents every key with its default")
    func bundledIsDefaults() throws {
        let c = try WebConfigLoader.load(path: TestData.repo("config/hotcold-web.toml").path)
        #expect(c == WebConfiguration())
        let text = try String(contentsOf: TestData.repo("config/hotcold-web.toml"), encoding: .utf8)
        for (table, keys) in WebConfigLoader.known {
            #expect(text.contains("[\(table)]"))
            for k in keys { #expect(text.contains("\n\(k) = "), "config/hotcold-web.toml lacks \(table).\(k)") }
        }
    }

    @Test("bad values name the key and line", arguments: [
        ("[listen]\naddress = \"box.local\"\n", "listen.address", 2),
        ("[listen]\nport = 70000\n", "listen.port", 2),
        ("\n[live]\nstatus_interval = 5.0\n", "live.status_interval", 3),
        ("[page]\ntile_url = \"javascript:alert(1)\"\n", "page.tile_url", 2),
        ("[access]\nstate_directory = \"relative\"\n", "access.state_directory", 2),
        ("[listen]\nhost = \"x\"\n", "listen.host", 2),
    ])
    func refused(text: String, key: String, line: Int) {
        do {
            _ = try WebConfigLoader.parse(text, file: "t.toml")
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.description.contains(key), "\(error)")
            #expect(error.description.contains("\(line)"), "\(error)")
        }
    }

    @Test("a tile URL adds exactly its origin to the Content-Security-Policy")
    func tileOrigin() {
        #expect(TileURL.origin(of: "https://tile.example.org/{z}/{x}/{y}.png") == "https://tile.example.org")
        #expect(TileURL.origin(of: "http://10.0.0.2:8080/t/{z}/{x}/{y}") == "http://10.0.0.2:8080")
        #expect(TileURL.origin(of: "https://evil.org;script-src */{z}/{x}/{y}") == nil)
        #expect(SecurityHeaders<WebContext>(tileOrigin: nil).policy.contains("img-src 'self' data:;"))
        #expect(SecurityHeaders<WebContext>(tileOrigin: "https://t.example").policy.contains("img-src 'self' data: https://t.example;"))
    }
}

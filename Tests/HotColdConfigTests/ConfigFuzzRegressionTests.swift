import HotColdConfig
import Testing

/// Inputs found by `scripts/fuzz` (target config) that crashed the loader.
@Suite struct ConfigFuzzRegressionTests {
    /// toml++ asserted (abort) on these table headers; a SIGHUP with such a typo killed the daemon.
    @Test("a table header that does not start with a name is a ConfigError naming its line",
          arguments: ["[%]", "[!]", "[.]", "[=]", "[#]", "[ %]", "[\t!]", "[[%]]", "[[ %]]", "[[[a]]]", "[é]", "["])
    func badTableHeader(header: String) {
        let text = "[gpsd]\nport = 2947\n\(header)\n"
        #expect {
            _ = try ConfigLoader.parse(text, file: "bad.toml")
        } throws: { error in
            guard let e = error as? ConfigError else { return false }
            return e.line == 3 && e.file == "bad.toml" && e.message.contains("table header")
        }
    }

    /// toml++ skips a byte-order mark; the header check did not, so "\u{FEFF}[= [" aborted.
    @Test func badHeaderAfterAByteOrderMark() {
        #expect {
            _ = try ConfigLoader.parse("\u{FEFF}[= [\nport = 2947\n", file: "bom.toml")
        } throws: { error in
            (error as? ConfigError)?.line == 1
        }
    }

    @Test("headers toml++ handles itself still reach it: quoted names, nested arrays, empty headers")
    func goodHeadersPass() throws {
        let c = try ConfigLoader.parse("[\"gpsd\"]\nport = 2000\n['log']\npath = \"/tmp/x.jsonl\"\n", file: "ok.toml")
        #expect(c.gpsd.port == 2000 && c.log.path == "/tmp/x.jsonl")
        #expect(throws: ConfigError.self) { try ConfigLoader.parse("[ ]\n", file: "empty.toml") }
    }
}

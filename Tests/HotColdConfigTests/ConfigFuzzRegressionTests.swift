import HotColdConfig
import HotColdDaemonTesting
import Testing

/// Inputs found by `scripts/fuzz` (target config) that crashed the loader.
@Suite(.offCooperativePool) struct ConfigFuzzRegressionTests {
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

/// toml++ asserted (abort) on a `}` where an array expects an element; the fuzzer found
/// `allowed_users = [}` in a [socket] section.
@Suite(.offCooperativePool) struct ConfigArrayBraceRegressionTests {
    @Test("a '}' where an array element should be is a ConfigError naming its line",
          arguments: ["allowed_users = [}", "allowed_users = [ }", "allowed_users = [\"a\", }", "allowed_users = [[}]]",
                      "allowed_users = [ # note\n}", "allowed_users = [\n\n}", "allowed_users = [{}, }"])
    func braceForElement(value: String) {
        let text = "[gpsd]\nport = 2947\n[socket]\n\(value)\n"
        let braceLine = 3 + value.split(separator: "\n", omittingEmptySubsequences: false).count
        #expect {
            _ = try ConfigLoader.parse(text, file: "bad.toml")
        } throws: { error in
            guard let e = error as? ConfigError else { return false }
            return e.line == braceLine && e.file == "bad.toml" && e.message.contains("'}'")
        }
    }

    @Test("braces and brackets inside strings, comments and inline tables are not counted")
    func bracesElsewherePass() throws {
        let text = """
            # a comment with [} in it
            [socket]
            allowed_users = ["[}", '[,}', \"\"\"x
            [}\"\"\", "esc\\"[}"]  # [}
            allowed_groups = [
              "hotcold", # },
            ]
            """
        let c = try ConfigLoader.parse(text, file: "ok.toml")
        #expect(c.socket.allowedUsers == ["[}", "[,}", "x\n[}", "esc\"[}"])
        #expect(c.socket.allowedGroups == ["hotcold"])
    }
}

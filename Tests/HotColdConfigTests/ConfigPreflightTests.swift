import Foundation
@testable import HotColdConfig
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// The syntax check that keeps malformed TOML from the parser (which aborts on some of it).
/// toml++ asserted on a date followed by a space, one digit and the end of the value
/// (`d = 1979-05-27 0#`: it scans on for a time and finds none); the fuzzer's input had
/// replacement characters in place of the date's digits.
@Suite(.offCooperativePool) struct ConfigPreflightTests {
    @Test("what crashed the parser, and other malformed TOML, is refused naming its line and what is wrong",
          arguments: [
              ("host = 1979-05-27 0#", "dates"), ("host = 2\u{FFFD}-------\u{FFFD} 3#-[", "not a number"),
              ("host = 1979-05-27 0", "dates"), ("host = [1979-05-27 0]", "dates"), ("host = 07:32:00", "dates"),
              ("port = 2947\u{A0}", "non-ASCII"), ("hóst = \"a\"", "non-ASCII"),
              ("host = \"a\\qb\"", "escape"), ("host = \"a", "not closed"), ("host = \"\\uD800\"", "Unicode scalar"),
              ("port = 0123", "start with 0"), ("port = 1__0", "not a number"), ("port = 1.", "digit"),
              ("port = +0x10", "not a number"), ("host = {a = 1,}", "key"), ("host = [1 2]", "',' or ']'"),
              ("host = [}", "'}'"), ("host = \"a\" \"b\"", "end of the line"), ("[%]", "table header"),
              ("host = tru", "value"), ("host = \"\u{07}\"", "control character"), ("host = 1 # bell \u{07}", "comment"),
          ])
    func refused(line: String, says: String) {
        let problem = TOMLPreflight.firstProblem(in: "[gpsd]\n\(line)\nport = 1\n")
        #expect(problem?.line == 2 && problem?.message.contains(says) == true, "\(String(describing: problem))")
    }

    @Test("nesting is bounded")
    func deepNesting() {
        let deep = "x = " + String(repeating: "[", count: 40) + String(repeating: "]", count: 40) + "\n"
        #expect(TOMLPreflight.firstProblem(in: deep)?.message.contains("nested") == true)
    }

    @Test("every well-formed form a configuration might use passes, and the parser reads it")
    func wellFormedTOMLPasses() throws {
        let text = #"""
            # every form a configuration might use
            [a]   # comment
            s1 = "basic \" \\ \u00e9 \U0001F600 é"
            s2 = 'literal \ "quoted"'
            s3 = """
            multi \
              line "" ""\""""
            s4 = '''
            raw [} "'' '''''
            "quoted key" = 1
            dotted . key = 2
            i = [+1, -0, 0, 1_000, 0xdead_BEEF, 0o755, 0b1010]
            f = [1.5, -0.0, 1e6, 2E-3, 6.02e+23, 1_0.0_1, inf, -inf, +nan]
            b = [true, false]
            nested = [ [1, 2], ["a", [ {} ] ], ]
            multi = [
              1,  # one
              # nothing
              2,
            ]
            inline = { x = 1, y.z = "two", w = { v = [1] } }
            [[list.of]]
            k = 'v'
            [ 'sp aced' . "tab\t" ]
            """# + "\r\nk = 1\r\n"
        #expect(TOMLPreflight.firstProblem(in: "\u{FEFF}" + text) == nil)
        #expect(TOMLPreflight.firstProblem(in: text) == nil)
        let known: [String: Set<String>] = [
            "a": ["s1", "s2", "s3", "s4", "quoted key", "dotted", "i", "f", "b", "nested", "multi", "inline"],
            "list": ["of"], "sp aced": ["tab\t"],
        ]
        _ = try TOMLDocument(text: text, file: "forms.toml", known: known)
    }

    @Test("the shipped configurations and the fuzz seeds pass")
    func shippedFilesPass() throws {
        for dir in ["config", "Fuzz/Corpus/config"] {
            let url = TestData.repo(dir)
            let names = try FileManager.default.contentsOfDirectory(atPath: url.path).filter { $0.hasSuffix(".toml") }
            #expect(!names.isEmpty, "\(dir)")
            for name in names {
                let text = try String(contentsOf: url.appendingPathComponent(name), encoding: .utf8)
                #expect(TOMLPreflight.firstProblem(in: text) == nil, "\(dir)/\(name)")
            }
        }
    }
}

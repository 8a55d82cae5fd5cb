import Foundation
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// One entry of `Tests/Golden/manifest.json`: a recorded track, its targets and extra arguments.
struct GoldenEntry: Sendable, Decodable, CustomTestStringConvertible {
    var name: String
    /// Relative to ../shared/data.
    var track: String?
    /// Relative to the repository.
    var repo_track: String?
    /// "generate" (NAME.targets.json beside the manifest) or a repository path.
    var targets: String
    var args: [String]
    var what: String
    /// The receiver's own clock steps back in this recording; events follow the fixes' times.
    var clock_steps_back: Bool?

    var testDescription: String { name }

    var trackURL: URL { repo_track.map(TestData.repo) ?? TestData.url(track ?? "") }
    var targetsURL: URL {
        targets == "generate" ? TestData.repo("Tests/Golden/\(name).targets.json") : TestData.repo(targets)
    }
    var goldenURL: URL { TestData.repo("Tests/Golden/\(name).events.jsonl") }
    var arguments: [String] { ["replay", trackURL.path, "--targets", targetsURL.path] + args }
    var isJSON: Bool { !(args.contains("--format") && args.contains("text")) }

    static let all: [GoldenEntry] = {
        struct Manifest: Decodable { var tracks: [GoldenEntry] }
        guard let data = try? Data(contentsOf: TestData.repo("Tests/Golden/manifest.json")),
              let m = try? JSONDecoder().decode(Manifest.self, from: data) else { return [] }
        return m.tracks
    }()
}

/// gpsd's regression idea: recorded tracks replayed through the real `hotcold replay` binary and
/// diffed against checked-in expected output. `scripts/regen-golden` rewrites the golden files.
@Suite(.offCooperativePool) struct GoldenReplayTests {
    @Test func manifestIsReadableAndComplete() throws {
        #expect(GoldenEntry.all.count >= 8)
        for e in GoldenEntry.all {
            #expect(FileManager.default.fileExists(atPath: e.trackURL.path), "\(e.name): no track \(e.trackURL.path)")
            #expect(FileManager.default.fileExists(atPath: e.targetsURL.path), "\(e.name): no targets")
            #expect(FileManager.default.fileExists(atPath: e.goldenURL.path),
                    "\(e.name): no golden file; run scripts/regen-golden \(e.name)")
        }
    }

    @Test(arguments: GoldenEntry.all)
    func replayMatchesGolden(_ e: GoldenEntry) throws {
        let r = try Subprocess.run(Binaries.url("hotcold"), e.arguments)
        #expect(r.status == 0, "\(e.name): exit \(r.status): \(r.stderr)")
        let expected = try String(contentsOf: e.goldenURL, encoding: .utf8)
        if let diff = Self.firstDifference(expected: expected, actual: r.stdout) {
            Issue.record("""
                \(e.name): output differs from \(e.goldenURL.lastPathComponent) \(diff)
                If the change is intended: scripts/regen-golden \(e.name) and review the diff.
                """)
        }
        // Golden files must be worth having: every one shows some events.
        #expect(!expected.isEmpty, "\(e.name): empty golden file")
    }

    @Test func goldenLinesMatchTheJSONSchema() throws {
        let files = GoldenEntry.all.filter(\.isJSON).map { $0.goldenURL.path }
        #expect(!files.isEmpty)
        let script = """
            import json, sys, jsonschema
            v = jsonschema.Draft202012Validator(json.load(open(sys.argv[1])))
            bad = lines = 0
            for path in sys.argv[2:]:
                for n, line in enumerate(open(path), 1):
                    lines += 1
                    obj = json.loads(line)
                    if next(iter(obj)) != "class":
                        print(f"{path}:{n}: class is not the first field"); bad += 1
                    for err in v.iter_errors(obj):
                        print(f"{path}:{n}: {err.message}"); bad += 1
            print(f"{lines} lines checked")
            sys.exit(1 if bad or not lines else 0)
            """
        let r = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/env"),
                                   ["python3", "-c", script, TestData.repo("schema/event.schema.json").path] + files)
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
    }

    /// Every hunted target gets a first PROXIMITY, and every ARRIVED that is followed by more of
    /// the track is balanced by at most one DEPARTED (never a DEPARTED without an ARRIVED).
    @Test(arguments: GoldenEntry.all.filter(\.isJSON))
    func goldenStreamsAreWellFormed(_ e: GoldenEntry) throws {
        let text = try String(contentsOf: e.goldenURL, encoding: .utf8)
        var inside: [String: Bool] = [:]
        var lastTime = ""
        for (n, line) in text.split(separator: "\n").enumerated() {
            let obj = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let time = obj["time"] as? String ?? ""
            #expect(time >= lastTime || e.clock_steps_back == true,
                    "\(e.name):\(n + 1): time goes backwards (\(lastTime) -> \(time))")
            lastTime = time
            guard let id = (obj["target"] as? [String: Any])?["id"] as? String else { continue }
            switch obj["class"] as? String {
            case "ARRIVED":
                #expect(inside[id] != true, "\(e.name):\(n + 1): ARRIVED twice at \(id)")
                inside[id] = true
            case "DEPARTED":
                #expect(inside[id] == true, "\(e.name):\(n + 1): DEPARTED from \(id) without ARRIVED")
                inside[id] = false
            default: break
            }
        }
    }

    /// The line number and both lines where `actual` first departs from `expected`, or nil.
    static func firstDifference(expected: String, actual: String) -> String? {
        if expected == actual { return nil }
        let a = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let b = actual.split(separator: "\n", omittingEmptySubsequences: false)
        for i in 0..<max(a.count, b.count) {
            let x = i < a.count ? String(a[i]) : "<end of file>"
            let y = i < b.count ? String(b[i]) : "<end of output>"
            if x != y {
                return "first at line \(i + 1) (golden \(a.count - 1) lines, output \(b.count - 1)):\n  golden: \(x)\n  output: \(y)"
            }
        }
        return "(line endings or trailing bytes differ)"
    }
}

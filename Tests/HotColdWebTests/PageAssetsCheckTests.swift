import Foundation
import HotColdTestSupport
import HotColdDaemonTesting
import Testing
@testable import HotColdWeb

/// The page's own files (Sources/HotColdWeb/Page/Assets), checked by real tools: the script's
/// modules (`js/*.js`) are type-checked by TypeScript (`// @ts-check`, JSDoc types,
/// `jsconfig.json`, which lists every one) and linted by ESLint (`.eslintrc.json`), both from
/// Debian (node-typescript, eslint; scripts/setup installs them); the markup holds every element
/// the script asks for; the binary serves the files as they are, every module and nothing else.
@Suite("the page's files, checked", .offCooperativePool)
struct PageAssetsCheckTests {
    static let assets = TestData.repo("Sources/HotColdWeb/Page/Assets")
    /// The script's modules on disk, by file name.
    static func modules() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: assets.appendingPathComponent("js").path)
            .filter { $0.hasSuffix(".js") }.sorted()
    }
    static func tool(_ name: String) -> URL? {
        ["/usr/bin/", "/usr/local/bin/"].map { URL(fileURLWithPath: $0 + name) }.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    @Test("TypeScript checks every module: jsconfig.json lists exactly the modules on disk")
    func typeCheckedFiles() throws {
        let data = try Data(contentsOf: Self.assets.appendingPathComponent("jsconfig.json"))
        let config = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let options = try #require(config["compilerOptions"] as? [String: Any])
        #expect(options["module"] as? String == "es2020" && options["checkJs"] as? Bool == true)
        #expect(options["noUnusedLocals"] as? Bool == true && options["noUnusedParameters"] as? Bool == true)
        #expect((config["files"] as? [String])?.sorted() == (try Self.modules()).map { "js/" + $0 })
    }

    @Test("TypeScript finds no type error in the script's modules", .enabled(if: tool("tsc") != nil), .timeLimit(.minutes(5)))
    func typeChecked() async throws {
        let tsc = try #require(Self.tool("tsc"))
        let r = try await onThread { try Subprocess.run(tsc, ["-p", Self.assets.appendingPathComponent("jsconfig.json").path]) }
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
    }

    @Test("ESLint finds nothing in the script's modules", .enabled(if: tool("eslint") != nil), .timeLimit(.minutes(5)))
    func linted() async throws {
        let eslint = try #require(Self.tool("eslint"))
        // Debian's eslint finds its modules in Debian's node paths, whichever node runs it.
        let env = ["NODE_PATH": "/usr/share/nodejs:/usr/lib/nodejs"]
        let files = try Self.modules().map { Self.assets.appendingPathComponent("js").appendingPathComponent($0).path }
        #expect(files.count > 10)
        let r = try await onThread {
            try Subprocess.run(eslint, ["--no-eslintrc", "-c", Self.assets.appendingPathComponent(".eslintrc.json").path, "-f", "unix"] + files,
                               environment: env)
        }
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
    }

    @Test("every element the script asks for by id is in the markup")
    func idsExist() throws {
        let js = try Self.modules().map { try String(contentsOf: Self.assets.appendingPathComponent("js").appendingPathComponent($0), encoding: .utf8) }
            .joined(separator: "\n")
        let html = try String(contentsOf: Self.assets.appendingPathComponent("index.html"), encoding: .utf8)
        let asked = Set(js.matches(of: /(?:\$|button)\("([a-z0-9-]+)"\)/).map { String($0.1) })
        let made = Set(js.matches(of: /id: "([a-z0-9-]+)"/).map { String($0.1) })    // the script's own (radar layers)
        let have = Set(html.matches(of: /id="([a-z0-9-]+)"/).map { String($0.1) }).union(made)
        #expect(asked.count > 30)
        #expect(asked.subtracting(have).isEmpty, "asked for but not in index.html: \(asked.subtracting(have).sorted())")
    }

    @Test("the binary serves the files byte for byte (embedded at build time)")
    func embedded() throws {
        for (file, text) in [("index.html", PageAssets.html), ("not-paired.html", PageAssets.notPaired), ("app.css", PageAssets.style)] {
            let disk = try String(contentsOf: Self.assets.appendingPathComponent(file), encoding: .utf8)
            #expect(disk == text, "\(file) differs from what the binary holds: rebuild")
        }
        // Every module on disk, and no other (a module removed from js/ is gone from the binary).
        #expect(PageAssets.modules.keys.sorted() == (try Self.modules()), "the modules differ from what the binary holds: rebuild")
        for file in try Self.modules() {
            let disk = try String(contentsOf: Self.assets.appendingPathComponent("js").appendingPathComponent(file), encoding: .utf8)
            #expect(disk == PageAssets.modules[file], "js/\(file) differs from what the binary holds: rebuild")
        }
    }
}

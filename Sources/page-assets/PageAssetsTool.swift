import Foundation

// page-assets OUTPUT INPUT...: writes a Swift file that holds each input file's text as a
// static property of `PageAssets` (HotColdWeb), so the page's markup, script and style live as
// files of their own (linted, type-checked, edited as what they are) and are embedded in the
// binary at build time. Run by the PageAssets build plugin; property names come from the file
// names: index.html → html, not-paired.html → notPaired, app.js → script, app.css → style.

/// Entry point as a type (not top-level code): the fuzz build compiles every executable as a
/// library (`-sanitize=fuzzer`), where top-level statements are not allowed.
@main
enum PageAssetsTool {
    static func main() {
        let names = ["index.html": "html", "not-paired.html": "notPaired", "app.js": "script", "app.css": "style"]

        /// A raw string literal holding `text` exactly: enough `#`s that neither its closing delimiter
        /// nor an escape can occur inside.
        func literal(_ text: String) -> String {
            var n = 1
            while text.contains("\"\"\"" + String(repeating: "#", count: n)) || text.contains("\\" + String(repeating: "#", count: n)) { n += 1 }
            let hashes = String(repeating: "#", count: n)
            return hashes + "\"\"\"\n" + text + "\n\"\"\"" + hashes
        }

        let args = CommandLine.arguments.dropFirst()
        guard let output = args.first else {
            FileHandle.standardError.write(Data("usage: page-assets OUTPUT INPUT...\n".utf8))
            exit(64)
        }
        var swift = "// Generated at build time by the PageAssets plugin from Sources/HotColdWeb/Page/Assets; edit those files.\n"
        swift += "extension PageAssets {\n"
        for path in args.dropFirst().sorted() {
            let file = URL(fileURLWithPath: path).lastPathComponent
            guard let name = names[file] else {
                FileHandle.standardError.write(Data("page-assets: \(path): not a page asset (known: \(names.keys.sorted().joined(separator: ", ")))\n".utf8))
                exit(65)
            }
            guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
                FileHandle.standardError.write(Data("page-assets: cannot read \(path) as UTF-8\n".utf8))
                exit(66)
            }
            swift += "    /// `\(file)`, as written.\n    static let \(name) = \(literal(text))\n"
        }
        swift += "}\n"
        do {
            try swift.write(toFile: output, atomically: true, encoding: .utf8)
        } catch {
            FileHandle.standardError.write(Data("page-assets: cannot write \(output): \(error)\n".utf8))
            exit(73)
        }
    }
}

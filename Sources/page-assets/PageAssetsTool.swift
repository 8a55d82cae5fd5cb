import Foundation

// page-assets OUTPUT INPUT...: writes a Swift file that holds each input file's text as a
// static property of `PageAssets` (HotColdWeb), so the page's markup, script and style live as
// files of their own (linted, type-checked, edited as what they are) and are embedded in the
// binary at build time. Run by the PageAssets build plugin; property names come from the file
// names: index.html → html, not-paired.html → notPaired, app.css → style; the script's modules
// (any NAME.js in a directory named js) go into `modules`, keyed by file name ("main.js").

/// Entry point as a type (not top-level code): the fuzz build compiles every executable as a
/// library (`-sanitize=fuzzer`), where top-level statements are not allowed.
@main
enum PageAssetsTool {
    static func main() {
        let names = ["index.html": "html", "not-paired.html": "notPaired", "app.css": "style"]

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
        func read(_ path: String) -> String {
            guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
                FileHandle.standardError.write(Data("page-assets: cannot read \(path) as UTF-8\n".utf8))
                exit(66)
            }
            return text
        }
        /// A module: `js/NAME.js`, NAME of lower-case letters, digits and dashes (it is also the module's
        /// URL, /js/NAME.js, and its key in `modules`).
        func isModule(_ url: URL) -> Bool {
            let base = url.deletingPathExtension().lastPathComponent
            return url.deletingLastPathComponent().lastPathComponent == "js" && url.pathExtension == "js" && !base.isEmpty
                && base.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
        }

        var swift = "// Generated at build time by the PageAssets plugin from Sources/HotColdWeb/Page/Assets; edit those files.\n"
        swift += "extension PageAssets {\n"
        var modules: [(String, String)] = []
        for path in args.dropFirst().sorted() {
            let url = URL(fileURLWithPath: path), file = url.lastPathComponent
            if isModule(url) { modules.append((file, read(path))); continue }
            guard let name = names[file] else {
                FileHandle.standardError.write(Data("page-assets: \(path): not a page asset (known: \(names.keys.sorted().joined(separator: ", ")), js/NAME.js)\n".utf8))
                exit(65)
            }
            swift += "    /// `\(file)`, as written.\n    static let \(name) = \(literal(read(path)))\n"
        }
        swift += "    /// The script's modules (`js/NAME.js`), each as written, by file name.\n    static let modules: [String: String] = ["
        swift += modules.isEmpty ? ":" : "\n"
        for (file, text) in modules.sorted(by: { $0.0 < $1.0 }) {
            swift += "        \"\(file)\": \(literal(text)),\n"
        }
        swift += modules.isEmpty ? "]\n}\n" : "    ]\n}\n"
        do {
            try swift.write(toFile: output, atomically: true, encoding: .utf8)
        } catch {
            FileHandle.standardError.write(Data("page-assets: cannot write \(output): \(error)\n".utf8))
            exit(73)
        }
    }
}

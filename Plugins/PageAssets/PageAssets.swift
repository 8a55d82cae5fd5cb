import Foundation
import PackagePlugin

/// Embeds the page's files (`Page/Assets/*.html|css` and the script's modules
/// `Page/Assets/js/*.js` of the target) in the binary at build time: `page-assets` turns them
/// into one Swift file of string literals, rebuilt whenever one of them changes.
@main
struct PageAssets: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let dir = target.directoryURL.appending(path: "Page/Assets")
        let list = { (dir: URL, extensions: [String]) in
            try FileManager.default.contentsOfDirectory(at: dir, includingPropertiesForKeys: nil)
                .filter { extensions.contains($0.pathExtension) }
        }
        let files = try (list(dir, ["html", "css"]) + list(dir.appending(path: "js"), ["js"]))
            .sorted { $0.path < $1.path }
        let output = context.pluginWorkDirectoryURL.appending(path: "PageAssets+Files.swift")
        return [.buildCommand(
            displayName: "Embedding the page's \(files.count) files",
            executable: try context.tool(named: "page-assets").url,
            arguments: [output.path] + files.map(\.path),
            inputFiles: files,
            outputFiles: [output])]
    }
}

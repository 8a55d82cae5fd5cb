import Foundation

/// Finds files that ship with hotcold (the Big Things catalogue) from the build tree or an
/// installed prefix.
///
/// Order: `$HOTCOLD_DATA_DIR`, `<executable dir>/../share/hotcold/`, then each folder up from
/// the executable that holds `data/bigthings.json` (the source tree during development and tests).
///
/// ```swift
/// let url = try BundledData.catalogueURL()
/// ```
public enum BundledData {
    static let catalogueName = "bigthings.json"

    public static func candidates(environment: [String: String] = ProcessInfo.processInfo.environment,
                                  executable: URL? = BundledData.executableURL) -> [URL] {
        var out: [URL] = []
        if let dir = environment["HOTCOLD_DATA_DIR"], !dir.isEmpty {
            out.append(URL(fileURLWithPath: dir).appendingPathComponent(catalogueName))
        }
        if let exe = executable {
            let dir = exe.deletingLastPathComponent()
            out.append(dir.deletingLastPathComponent().appendingPathComponent("share/hotcold/\(catalogueName)"))
            var up = dir
            while up.path != "/" {
                out.append(up.appendingPathComponent("data/\(catalogueName)"))
                up.deleteLastPathComponent()
            }
        }
        return out
    }

    public static func catalogueURL() throws -> URL {
        let c = candidates()
        if let found = c.first(where: { FileManager.default.isReadableFile(atPath: $0.path) }) { return found }
        throw StoreError.bundledCatalogueNotFound(searched: Array(c.prefix(3)).map(\.path) + (c.count > 3 ? ["…parents"] : []))
    }

    /// The running executable, resolved through /proc so symlinks in bin/ do not mislead.
    public static var executableURL: URL? {
        if let p = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return URL(fileURLWithPath: p)
        }
        return Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
    }
}

import Foundation

/// Where the tests find the shared real-world data and the built executables.
public enum TestData {
    /// The repository root, found from this source file's location.
    public static let repoRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        // Sources/HotColdTestSupport/TestData.swift -> repo root
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()

    /// `../shared/data` beside the checkout (CI places it there); `HOTCOLD_SHARED_DATA` overrides.
    public static let sharedData: URL = {
        if let env = ProcessInfo.processInfo.environment["HOTCOLD_SHARED_DATA"] {
            return URL(fileURLWithPath: env)
        }
        return repoRoot.deletingLastPathComponent().appendingPathComponent("shared/data")
    }()

    /// A file under the shared data folder, e.g. `url("gpsd-logs/sl869.log")`.
    public static func url(_ relative: String) -> URL {
        sharedData.appendingPathComponent(relative)
    }

    /// A file in this repository, e.g. `repo("config/hotcold.toml")`.
    public static func repo(_ relative: String) -> URL {
        repoRoot.appendingPathComponent(relative)
    }
}

/// The executables SwiftPM built next to the test bundle (`.build/debug/hotcold`, …).
public enum Binaries {
    public static let directory: URL = {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        var dir = URL(fileURLWithPath: exe).deletingLastPathComponent()
        // The test runner may live inside a bundle directory; a benchmark build may hold only
        // some of the programs.
        while !["hotcold", "hotcoldd", "hotcold-mqtt"].contains(where: {
            FileManager.default.fileExists(atPath: dir.appendingPathComponent($0).path)
        }), dir.path != "/" {
            dir.deleteLastPathComponent()
        }
        return dir
    }()

    public static func url(_ name: String) -> URL { directory.appendingPathComponent(name) }
}

/// A fresh temporary directory, removed by `remove()`.
public struct TemporaryDirectory: Sendable {
    public let url: URL
    public init(_ label: String = "hotcold") throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(label)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }
    public func remove() { try? FileManager.default.removeItem(at: url) }
}

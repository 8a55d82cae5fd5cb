import Foundation
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// The design's rules, checked on the tree and the built binaries so that a change breaking
/// them fails here rather than in a review: the daemon links no network library (everything
/// networked is a companion process); the engine's module imports nothing of ours and does no
/// I/O (it is pure: fix in, events out); the protocol links neither the store nor the daemon
/// (clients and companions link it alone).
@Suite(.offCooperativePool) struct ArchitectureRulesTests {
    static let projectModules = ["GPSInput", "HotColdConfig", "HotColdDaemon", "HotColdMQTT", "HotColdProtocol",
                                 "HotColdScreen", "HotColdStore", "HotColdSync", "HotColdWeb",
                                 "HotColdFormats", "XMLStream", "CGPS", "CMosquitto", "GRDB", "TOMLKit", "NIO",
                                 "AsyncHTTPClient", "Hummingbird", "Logging"]

    /// Every Swift file of a module, with its text.
    static func sources(_ module: String) throws -> [(String, String)] {
        let root = TestData.repo("Sources/\(module)")
        let files = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") } ?? []
        return try files.sorted().map { ($0, try String(contentsOf: root.appendingPathComponent($0), encoding: .utf8)) }
    }

    static func imports(_ text: String) -> [String] {
        text.split(separator: "\n").compactMap { line in
            let t = line.trimmingCharacters(in: .whitespaces)
            guard t.hasPrefix("import ") || t.hasPrefix("@testable import ") || t.hasPrefix("@_exported import ") else { return nil }
            return t.split(separator: " ").last.map(String.init)
        }
    }

    @Test func theDaemonLinksNoNetworkLibrary() throws {
        let r = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/ldd"), [Binaries.url("hotcoldd").path])
        try #require(r.status == 0, "\(r.stderr)")
        let linked = r.stdout.split(separator: "\n").compactMap { $0.trimmingCharacters(in: .whitespaces).split(separator: " ").first.map(String.init) }
        let network = ["libcurl", "libssl", "libcrypto", "libFoundationNetworking", "libmosquitto", "libnghttp2",
                       "libNIO", "libAsyncHTTPClient"]
        let found = linked.filter { lib in network.contains { lib.hasPrefix($0) } }
        #expect(found.isEmpty, "hotcoldd links \(found): networking belongs to the companion processes")
        #expect(linked.contains { $0.hasPrefix("libgps") }, "ldd read the real binary: \(linked)")
    }

    @Test func theEngineImportsNothingOfOursAndDoesNoIO() throws {
        let files = try Self.sources("HotColdCore")
        #expect(files.count > 10)
        // Words that mean files, sockets, processes, clocks or randomness. Comments are skipped.
        let io = ["FileManager", "FileHandle", "fopen(", "URLSession", "Process(", "getenv(", "ProcessInfo",
                  "Date()", "ContinuousClock.now", ".random(", "SystemRandomNumberGenerator", "DispatchQueue",
                  "Thread(", "sleep(", "socket(", "String(contentsOf", "Data(contentsOf", ".write(to"]
        for (name, text) in files {
            let ours = Self.imports(text).filter { Self.projectModules.contains($0) }
            #expect(ours.isEmpty, "HotColdCore/\(name) imports \(ours)")
            let code = text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
                .joined(separator: "\n")
            let used = io.filter { code.contains($0) }
            #expect(used.isEmpty, "HotColdCore/\(name) does I/O or reads a clock: \(used)")
            // The engine emits plain values; turning them into lines is the protocol's work.
            let json = ["JSONEncoder", "JSONDecoder", "JSONSerialization", "JSONLine"]
                .filter { code.contains($0) }
            #expect(json.isEmpty, "HotColdCore/\(name) knows JSON: \(json)")
        }
    }

    /// Every loop of the daemon is a service's: threads are started only by `ThreadLoop` (in a
    /// service's `run()`), by the socket's `start` (in `SocketService.run()`) and for one
    /// bounded `watch since` replay at a time; no timer runs outside a service.
    @Test func theDaemonStartsLoopsOnlyInItsServices() throws {
        let allowed: Set<String> = ["Services/ThreadLoop.swift", "Socket/SocketServer.swift", "Pipeline/EventPublisher+WatchSince.swift"]
        for (name, text) in try Self.sources("HotColdDaemon") {
            let code = text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
                .joined(separator: "\n")
            #expect(!code.contains("makeTimerSource"), "HotColdDaemon/\(name) runs a timer outside the services")
            if code.contains("Thread {") || code.contains("Thread(") || code.contains("detachNewThread") {
                #expect(allowed.contains(name), "HotColdDaemon/\(name) starts a thread outside the services")
            }
        }
        let services = try String(contentsOf: TestData.repo("Sources/HotColdDaemon/Services/SocketService.swift"), encoding: .utf8)
        #expect(services.contains("server.start(handler:"), "the socket's loop starts in SocketService.run()")
    }

    @Test func theProtocolLinksNeitherTheStoreNorTheDaemon() throws {
        let files = try Self.sources("HotColdProtocol")
        #expect(files.count > 10)
        for (name, text) in files {
            let bad = Self.imports(text).filter { ["HotColdStore", "HotColdDaemon", "GRDB", "HotColdMQTT", "HotColdSync"].contains($0) }
            #expect(bad.isEmpty, "HotColdProtocol/\(name) imports \(bad)")
        }
        let manifest = try String(contentsOf: TestData.repo("Package.swift"), encoding: .utf8)
        let line = manifest.split(separator: "\n").first { $0.contains(#".target(name: "HotColdProtocol""#) }
        #expect(line.map { !$0.contains("HotColdStore") && !$0.contains("HotColdDaemon") } == true, "\(line ?? "no target line")")
    }

    @Test("file formats and records live without a database: HotColdFormats links no GRDB, and the client imports none")
    func theFormatsLinkNoDatabase() throws {
        let files = try Self.sources("HotColdFormats")
        #expect(files.count > 30)
        for (name, text) in files {
            let bad = Self.imports(text).filter { ["HotColdStore", "HotColdDaemon", "GRDB"].contains($0) }
            #expect(bad.isEmpty, "HotColdFormats/\(name) imports \(bad)")
        }
        let manifest = try String(contentsOf: TestData.repo("Package.swift"), encoding: .utf8)
        let line = manifest.split(separator: "\n").first { $0.contains(#".target(name: "HotColdFormats""#) }
        #expect(line.map { !$0.contains("GRDB") && !$0.contains("HotColdStore") } == true, "\(line ?? "no target line")")
        for (name, text) in try Self.sources("hotcold") {
            #expect(!Self.imports(text).contains("GRDB"), "hotcold/\(name) imports GRDB")
        }
    }

    /// Each target's dependencies through every target it depends on (products named by their
    /// product name), from the manifest as SwiftPM reads it: a rule about what a module may
    /// link must see what arrives through another module, not only its own imports.
    static func reach() throws -> [String: Set<String>] {
        let r = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/env"), ["swift", "package", "--scratch-path", FileManager.default.temporaryDirectory.appendingPathComponent("hotcold-dump-package").path, "dump-package"],
                                   currentDirectory: TestData.repoRoot)
        try #require(r.status == 0, "swift package dump-package: \(r.stderr)")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        var direct: [String: [String]] = [:]
        for t in root["targets"] as? [[String: Any]] ?? [] {
            guard let name = t["name"] as? String else { continue }
            direct[name] = (t["dependencies"] as? [[String: Any]] ?? []).compactMap { d in
                ((d["byName"] ?? d["target"] ?? d["product"]) as? [Any])?.first as? String
            }
        }
        var memo: [String: Set<String>] = [:]
        func closure(_ name: String, _ path: Set<String>) -> Set<String> {
            if let m = memo[name] { return m }
            var out: Set<String> = []
            for d in direct[name] ?? [] where !path.contains(d) {
                out.insert(d)
                out.formUnion(closure(d, path.union([d])))
            }
            memo[name] = out
            return out
        }
        return Dictionary(uniqueKeysWithValues: direct.keys.map { ($0, closure($0, [$0])) })
    }

    @Test("what a module reaches through others keeps the rules: the engine nothing of ours, the protocol and the formats no database, the daemon no network library")
    func transitiveDependenciesKeepTheRules() throws {
        let reach = try Self.reach()
        try #require((reach["HotColdDaemon"] ?? []).contains("GRDB"), "the closure saw GRDB through HotColdStore: \(reach["HotColdDaemon"] ?? [])")
        #expect((reach["HotColdCore"] ?? ["?"]).isEmpty, "HotColdCore reaches \(reach["HotColdCore"] ?? [])")
        for module in ["HotColdProtocol", "HotColdFormats", "XMLStream", "HotColdScreen"] {
            let bad = (reach[module] ?? []).intersection(["GRDB", "HotColdStore", "HotColdDaemon", "AsyncHTTPClient", "Hummingbird", "CMosquitto"])
            #expect(bad.isEmpty, "\(module) reaches \(bad)")
        }
        for module in ["HotColdDaemon", "hotcoldd"] {
            let bad = (reach[module] ?? []).intersection(["AsyncHTTPClient", "NIOCore", "NIOPosix", "Hummingbird", "CMosquitto", "HotColdSync",
                                                           "HotColdMQTT", "HotColdWeb"])
            #expect(bad.isEmpty, "\(module) reaches \(bad): networking belongs to the companion processes")
        }
        for module in ["hotcold-mqtt", "hotcold-web", "hotcold-sync", "HotColdSync"] {
            let bad = (reach[module] ?? []).intersection(["GRDB", "HotColdStore", "HotColdDaemon"])
            #expect(bad.isEmpty, "\(module) reaches \(bad): companions reach the data through the socket only")
        }
        // The command-line client syncs nothing itself (hotcold-sync does): no HTTP, no TLS.
        let clientNet = (reach["hotcold"] ?? []).intersection(["AsyncHTTPClient", "NIOSSL", "NIOCore", "HotColdSync", "Hummingbird"])
        #expect(clientNet.isEmpty, "hotcold reaches \(clientNet): the web API is hotcold-sync's")
    }

    /// Modules that need only FoundationEssentials import only that (Foundation proper brings
    /// FoundationInternationalization and ICU's tables into every process that loads it). Each
    /// `import Foundation` there is the `#else` of `#if canImport(FoundationEssentials)`, for a
    /// platform without it. The store, the formats (diacritic folding, bundles) and the daemon
    /// need Foundation proper; the companions still load it through TOMLKit.
    @Test("the engine, the protocol, the configuration, the screen and the companions' own modules import FoundationEssentials, not Foundation")
    func essentialsOnly() throws {
        for module in ["HotColdCore", "HotColdProtocol", "HotColdConfig", "HotColdScreen", "HotColdWeb", "HotColdMQTT",
                       "hotcold-web", "hotcold-mqtt"] {
            let files = try Self.sources(module)
            #expect(!files.isEmpty, "no sources for \(module)")
            for (name, text) in files {
                let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
                    .map { $0.trimmingCharacters(in: .whitespaces) }
                for (n, line) in lines.enumerated() where line.hasPrefix("import ") || line.contains(" import ") {
                    let imported = line.split(separator: " ").last.map(String.init) ?? ""
                    guard imported == "Foundation" || imported.hasPrefix("Foundation.") || imported == "FoundationInternationalization" else { continue }
                    let guarded = imported == "Foundation" && n > 0 && lines[n - 1] == "#else"
                    #expect(guarded, "\(module)/\(name):\(n + 1) imports \(imported): import FoundationEssentials")
                }
            }
        }
    }
}

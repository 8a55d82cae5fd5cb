// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "hotcold",
    // Linux only: Glibc, libgps, SO_PEERCRED, systemd. No platforms entry claims otherwise.
    products: [
        .executable(name: "hotcoldd", targets: ["hotcoldd"]),
        .executable(name: "hotcold", targets: ["hotcold"]),
        .executable(name: "hotcold-sync", targets: ["hotcold-sync"]),
        .executable(name: "hotcold-mqtt", targets: ["hotcold-mqtt"]),
        .executable(name: "hotcold-web", targets: ["hotcold-web"]),
        .library(name: "HotColdCore", targets: ["HotColdCore"]),
        .library(name: "HotColdProtocol", targets: ["HotColdProtocol"]),
        // The daemon in a test's own process, and the pool tests that block run on.
        .library(name: "HotColdDaemonTesting", targets: ["HotColdDaemonTesting"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // async-http-client's own: named for the types HotColdSync's HTTP client handles (byte
        // buffers, connection and decompression errors).
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ],
    targets: [
        // libgps from gpsd: a module map and shim header, nothing else.
        .systemLibrary(
            name: "CGPS",
            pkgConfig: "libgps",
            providers: [.apt(["libgps-dev"])]),
        // libmosquitto (the MQTT client library): a module map and shim header, nothing else.
        .systemLibrary(
            name: "CMosquitto",
            pkgConfig: "libmosquitto",
            providers: [.apt(["libmosquitto-dev"])]),
        // Values and pure logic: geodesy, fixes, tiers, trend, arrival, the proximity engine. No I/O.
        .target(name: "HotColdCore"),
        // Unix plumbing every program shares: its own files opened as untrusted (no links
        // followed, owner, mode and size checked, never blocking), private directories checked
        // like ssh's, a boot clock no wall-clock jump moves, text made safe for a terminal.
        .target(name: "HotColdUnix"),
        // The socket's wire: Codable requests (validated while decoding), replies, events, error
        // codes, and the one line client. Links neither the daemon nor the store.
        .target(name: "HotColdProtocol", dependencies: ["HotColdCore"]),
        // The one XML reader: a streaming scanner for GPX (replay's track points, the importers'
        // waypoints). No Foundation, no libxml2.
        .target(name: "XMLStream"),
        // Fix sources: gpsd through libgps, and replay readers (NMEA 0183, gpsd JSON, GPX).
        .target(name: "GPSInput", dependencies: ["HotColdCore", "XMLStream", "CGPS"]),
        // TOML configuration shared by the client and the daemon.
        .target(name: "HotColdConfig", dependencies: ["HotColdCore", "TOMLKit"]),
        // The store's values and the files they come from and go to: records, import parsers,
        // export writers, the spatial index. No database: parsers are fuzzed without GRDB.
        .target(name: "HotColdFormats", dependencies: ["HotColdCore", "HotColdProtocol", "XMLStream"]),
        // SQLite through GRDB: places, user state, imports and exports, spatial queries.
        .target(
            name: "HotColdStore",
            dependencies: ["HotColdCore", "HotColdProtocol", "HotColdFormats", .product(name: "GRDB", package: "GRDB.swift")]),
        // The Big Things web API: HTTP client (async-http-client), outbox delivery, catalogue sync,
        // over the daemon's socket (the database is the daemon's: no GRDB here). HotColdFormats
        // only for `ImportError` (an unreadable catalogue is retried) and the outbox's item kinds.
        .target(name: "HotColdSync", dependencies: [
            "HotColdCore", "HotColdProtocol", "HotColdFormats", "HotColdConfig", "HotColdUnix",
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
        ]),
        // The daemon shell: socket server, JSON log, systemd integration, wiring.
        .target(
            name: "HotColdDaemon",
            dependencies: [
                "HotColdCore", "HotColdProtocol", "GPSInput", "HotColdConfig", "HotColdStore", "HotColdUnix",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ]),
        .executableTarget(
            name: "hotcoldd",
            dependencies: [
                "HotColdDaemon", "HotColdProtocol",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // The fleet bridge: a socket client of the daemon that publishes to an MQTT broker
        // (hotcold's own topics or OwnTracks'), at least once, resuming from the broker's last PUBACK.
        .target(
            name: "HotColdMQTT",
            dependencies: [
                "HotColdCore", "HotColdProtocol", "HotColdConfig", "HotColdUnix", "CMosquitto",
                .product(name: "TOMLKit", package: "TOMLKit"),
                // NIOLock: a plain lock without Foundation's NSLock.
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]),
        .executableTarget(
            name: "hotcold-mqtt",
            dependencies: [
                "HotColdMQTT", "HotColdProtocol",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // The live page for a phone or car display: an HTTP server (Hummingbird) that is a client of
        // the daemon's socket, with Server-Sent Events, device pairing and the embedded page.
        // The page's markup, script and style are files of their own (Page/Assets), embedded at
        // build time by the PageAssets plugin (its tool: page-assets).
        .target(
            name: "HotColdWeb",
            dependencies: [
                "HotColdCore", "HotColdProtocol", "HotColdConfig", "HotColdUnix",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            exclude: ["Page/Assets"],
            plugins: [.plugin(name: "PageAssets")]),
        .executableTarget(name: "page-assets"),
        .plugin(name: "PageAssets", capability: .buildTool(), dependencies: ["page-assets"]),
        .executableTarget(
            name: "hotcold-web",
            dependencies: [
                "HotColdWeb", "HotColdProtocol",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // The live full-screen view's pure core: a model built from STATUS and events, and a
        // renderer from model and terminal size to lines. No terminal I/O (that is hotcold's).
        .target(name: "HotColdScreen", dependencies: ["HotColdCore", "HotColdProtocol"]),
        .executableTarget(
            name: "hotcold",
            dependencies: [
                "HotColdCore", "HotColdProtocol", "GPSInput", "HotColdConfig", "HotColdStore", "HotColdScreen", "HotColdUnix",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // The web sync service: the outbox and the catalogue through the daemon's socket, the
        // network on its own (the daemon links no HTTP or TLS).
        .executableTarget(
            name: "hotcold-sync",
            dependencies: [
                "HotColdSync", "HotColdConfig", "HotColdCore", "HotColdProtocol",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // Prints throughput figures; not a test (machines are shared and noisy).
        .executableTarget(
            name: "hotcold-bench",
            dependencies: ["HotColdCore", "HotColdProtocol", "GPSInput", "HotColdStore", "HotColdTestSupport", "HotColdMQTT"]),
        // Test helpers shared by the test targets: data paths, temp dirs, subprocesses, gpsd.
        .target(name: "HotColdTestSupport", dependencies: ["HotColdProtocol"], path: "Sources/HotColdTestSupport"),
        // For tests, in the spirit of HummingbirdTesting: the daemon assembled in the test's own
        // process (`InProcessDaemon`) and `.offCooperativePool`, the trait every suite runs under.
        .target(name: "HotColdDaemonTesting", dependencies: [
            "HotColdDaemon", "HotColdConfig", "HotColdProtocol", "HotColdTestSupport",
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"), .product(name: "Logging", package: "swift-log"),
        ]),
        .testTarget(
            name: "HotColdProtocolTests",
            dependencies: ["HotColdDaemonTesting", "HotColdProtocol", "HotColdCore", "HotColdTestSupport"]),
        .testTarget(
            name: "HotColdCoreTests",
            dependencies: ["HotColdDaemonTesting", "HotColdCore", "HotColdTestSupport", .product(name: "PropertyBased", package: "swift-property-based")]),
        .testTarget(name: "GPSInputTests", dependencies: ["HotColdDaemonTesting", "HotColdTestSupport", "GPSInput", "HotColdCore"]),
        .testTarget(name: "HotColdUnixTests", dependencies: ["HotColdDaemonTesting", "HotColdTestSupport", "HotColdUnix"]),
        .testTarget(name: "HotColdConfigTests", dependencies: ["HotColdDaemonTesting", "HotColdTestSupport", "HotColdConfig"]),
        .testTarget(name: "HotColdStoreTests", dependencies: ["HotColdDaemonTesting", "HotColdTestSupport", "HotColdStore", "HotColdCore"]),
        .testTarget(name: "HotColdSyncTests", dependencies: ["HotColdDaemonTesting", "HotColdTestSupport", "HotColdSync", "HotColdStore", "HotColdCore", "HotColdConfig", "HotColdProtocol"]),
        .testTarget(name: "HotColdDaemonTests", dependencies: ["HotColdDaemonTesting", 
            "HotColdTestSupport", "HotColdDaemon", "HotColdCore", "HotColdProtocol", "HotColdStore", "HotColdConfig",
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"), .product(name: "Logging", package: "swift-log"),
        ]),
        .testTarget(name: "HotColdScreenTests", dependencies: ["HotColdDaemonTesting", "HotColdScreen", "HotColdCore", "HotColdProtocol"]),
        .testTarget(name: "HotColdMQTTTests", dependencies: ["HotColdDaemonTesting", "HotColdTestSupport", "HotColdMQTT", "HotColdCore"]),
        .testTarget(name: "HotColdWebTests", dependencies: ["HotColdDaemonTesting", 
            "HotColdTestSupport", "HotColdWeb", "HotColdCore", "HotColdProtocol",
        ]),
        // Runs the built executables as subprocesses against real files, gpsd and sockets.
        .testTarget(name: "EndToEndTests", dependencies: ["HotColdDaemonTesting", "HotColdCore", "HotColdStore", "HotColdTestSupport"]),
    ]
)

// libFuzzer targets (Fuzz/), only in the fuzz build: `scripts/fuzz` sets HOTCOLD_FUZZ=1 and
// builds them with `--sanitize=fuzzer` into `.build-fuzz`, so the normal build neither sees
// them nor needs the fuzzer runtime (whose `main` they use). A new target: a folder under
// Fuzz/Targets with one `@_cdecl("LLVMFuzzerTestOneInput")` function, seeds under
// Fuzz/Corpus/NAME, and one line here.
if Context.environment["HOTCOLD_FUZZ"] == "1" {
    let fuzzTargets: [(name: String, dependencies: [Target.Dependency])] = [
        ("tpv-engine", ["GPSInput", "HotColdCore", "CGPS"]),
        ("replay-nmea", ["ReplayFuzzCheck"]),
        ("replay-gpsd-json", ["ReplayFuzzCheck"]),
        ("replay-gpx", ["ReplayFuzzCheck"]),
        ("import-parse", ["HotColdFormats", "HotColdCore"]),
        ("import-store", ["HotColdStore", .product(name: "GRDB", package: "GRDB.swift")]),
        ("config", ["HotColdConfig", "HotColdCore", "HotColdMQTT"]),
        ("proto-request", ["HotColdProtocol"]),
        ("daemon-lines", ["HotColdProtocol", "HotColdScreen", "HotColdMQTT"]),
        ("friend-messages", ["HotColdCore", "HotColdProtocol", "HotColdMQTT"]),
    ]
    package.targets += [
        .target(name: "FuzzSupport", dependencies: ["HotColdCore", "HotColdProtocol"], path: "Fuzz/Support"),
        .target(name: "ReplayFuzzCheck", dependencies: ["FuzzSupport", "GPSInput", "HotColdCore"],
                path: "Fuzz/Targets/replay"),
    ]
    for t in fuzzTargets {
        package.targets.append(.executableTarget(
            name: "fuzz-\(t.name)", dependencies: ["FuzzSupport"] + t.dependencies, path: "Fuzz/Targets/\(t.name)"))
    }
}

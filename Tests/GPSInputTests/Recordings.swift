import Foundation
import GPSInput
import HotColdCore
import HotColdTestSupport

/// Where the shared recordings live: `../shared/data` beside the repository root.
enum Recordings {
    static let root: URL = {
        var url = URL(fileURLWithPath: #filePath)
        // Tests/GPSInputTests/Recordings.swift → repository root.
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.deletingLastPathComponent().appendingPathComponent("shared/data")
    }()

    static var gpsdLogs: URL { root.appendingPathComponent("gpsd-logs") }
    static var replays: URL { gpsdLogs.appendingPathComponent("replay-gpsd-3.22") }
    static var tracks: URL { root.appendingPathComponent("tracks") }

    static func files(in dir: URL, suffix: String) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        return names.filter { $0.hasSuffix(suffix) }.sorted().map { dir.appendingPathComponent($0) }
    }

    /// Logs that hold receiver binary (SiRF, UBX), not NMEA.
    static let binaryLogs: Set<String> = ["bu303-moving.log", "ublox-neo-m8n.log"]

    static var nmeaLogs: [URL] {
        files(in: gpsdLogs, suffix: ".log").filter { !binaryLogs.contains($0.lastPathComponent) }
    }

    static func log(_ name: String) -> String { gpsdLogs.appendingPathComponent(name).path }
    static func replay(_ name: String) -> String { replays.appendingPathComponent(name + ".tpv.jsonl").path }

    static func readAll(_ path: String) throws -> (fixes: [Fix], stats: ReplayStats, format: TrackFormat) {
        let reader = try TrackReader(path: path)
        var fixes: [Fix] = []
        while let fix = try reader.next() { fixes.append(fix) }
        return (fixes, reader.stats, reader.format)
    }

    /// Writes `bytes` to a fresh temporary file and returns its path.
    static func temporaryFile(_ bytes: [UInt8], suffix: String = ".txt") throws -> String {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("hotcold-readers-\(UUID().uuidString)\(suffix)")
        try Data(bytes).write(to: url)
        return url.path
    }

    static func temporaryFile(_ text: String, suffix: String = ".txt") throws -> String {
        try temporaryFile(Array(text.utf8), suffix: suffix)
    }

    /// An NMEA sentence with its checksum appended.
    static func sentence(_ body: String) -> String {
        let sum = body.utf8.reduce(UInt8(0), ^)
        return "$\(body)*\(String(format: "%02X", sum))"
    }

    /// Milliseconds since midnight UTC, for comparing times across gpsd's 1024-week shift.
    static func timeOfDay(_ date: Date) -> Int {
        let ms = Int((date.timeIntervalSince1970 * 1000).rounded())
        return ((ms % 86_400_000) + 86_400_000) % 86_400_000
    }
}

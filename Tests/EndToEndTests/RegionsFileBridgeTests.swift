import Foundation
import HotColdTestSupport
import HotColdDaemonTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A built `hotcold-mqtt` with a phone topic, starting on a valid 66 MB `regions.json` in its
/// state directory (its unit's `MemoryMax=` is 64M): the file is refused by its size before a
/// byte of it is read, set aside with a line in the log, and the bridge's peak memory stays
/// small (before: the whole file was read and decoded, a 769 MB peak).
@Suite(.offCooperativePool, .serialized, .enabled(if: MosquittoBroker.available))
struct RegionsFileBridgeTests {
    /// A field of `/proc/PID/status` in KiB (VmHWM: the peak).
    func memory(_ pid: Int32, _ field: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
            return Int(line.dropFirst(field.count + 1).trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "")
        }
        return nil
    }

    @Test func aHugeRegionsFileIsSetAsideAndTheBridgeStaysSmall() throws {
        let dir = try TemporaryDirectory("regions-bridge")
        defer { dir.remove() }
        let state = dir.path("bridge-state")
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        chmod(state, 0o750)
        // Valid JSON of the file's own shape: 560,000 creation times under 110-character ids.
        var text = #"{"held":[],"stamps":{"#
        text.reserveCapacity(70 << 20)
        let pad = String(repeating: "x", count: 100)
        for i in 0..<560_000 {
            if i > 0 { text += "," }
            text += "\"\(pad)\(String(format: "%010d", i))\":\(1_700_000_000 - i)"
        }
        text += #"},"version":1}"#
        let path = state + "/regions.json"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(size > 64 << 20)
        text = ""

        let broker = try MosquittoBroker.start()
        defer { broker.stop() }
        let bridge = try BridgeProcess(dir: dir, brokerPort: broker.port, device: "car",
                                       extra: ["[owntracks]", #"phone_topic = "owntracks/t/phone""#])
        defer { bridge.stop() }
        let deadline = Date().addingTimeInterval(20)
        while bridge.lines(containing: "regions.json").isEmpty, Date() < deadline { usleep(50_000) }
        let said = bridge.lines(containing: "regions.json")
        #expect(said.count == 1 && said[0].contains("\(size) bytes, more than the") && said[0].contains("set aside as \(path).unusable"),
                "\(bridge.stderr.suffix(2000))")
        // Give it a moment as a running bridge (connected to the broker, the daemon away).
        usleep(1_000_000)
        let peak = try #require(memory(bridge.process.processIdentifier, "VmHWM"), "the bridge is gone: \(bridge.stderr.suffix(2000))")
        print("regions.json of \(size >> 20) MiB: the bridge's peak RSS \(peak >> 10) MiB")
        #expect(peak < 48 << 10, "peak \(peak) KiB")
        #expect(FileManager.default.fileExists(atPath: path + ".unusable") && !FileManager.default.fileExists(atPath: path))
    }
}

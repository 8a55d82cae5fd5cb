// The TOML configuration loaders (TOMLKit + our checks): the daemon's and the MQTT bridge's,
// each given the same bytes.
//
// Invariants: nothing traps; a bad file gives a `ConfigError` whose line, when given, is a line
// of the file; an accepted configuration holds only finite, in-range values (no inf or nan
// radius, interval or engine figure reaches the daemon, no port or interval out of range the
// bridge).
import FuzzSupport
import HotColdConfig
import HotColdCore
import HotColdMQTT

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    fuzz(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

func fuzz(_ bytes: UnsafeRawBufferPointer) {
    let text = String(decoding: bytes, as: UTF8.self)
    daemon(text)
    bridge(text)
}

func checkLine(_ error: ConfigError, _ text: String) {
    guard let line = error.line else { return }
    // Count bytes, not Characters: Swift reads "\r\n" as one Character, TOML as a newline.
    let lines = text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).count
    fuzzCheck(line >= 1 && line <= lines + 1, "error names line \(line) of \(lines): \(error)")
}

func bridge(_ text: String) {
    let c: BridgeConfiguration
    do {
        c = try BridgeConfigLoader.parse(text, file: "fuzz.toml")
    } catch {
        checkLine(error, text)
        return
    }
    fuzzCheck((1...65535).contains(c.broker.port), "broker.port \(c.broker.port)")
    fuzzCheck(c.broker.reconnectMin >= 1 && c.broker.reconnectMin <= c.broker.reconnectMax,
              "broker.reconnect \(c.broker.reconnectMin)...\(c.broker.reconnectMax)")
    fuzzCheck(c.daemon.reconnectMax.isFinite && c.daemon.reconnectMax > 0, "daemon.reconnect_max \(c.daemon.reconnectMax)")
    fuzzCheck(c.bridge.statusInterval.isFinite && c.bridge.statusInterval > 0, "bridge.status_interval \(c.bridge.statusInterval)")
    fuzzCheck(c.daemon.socket.hasPrefix("/"), "daemon.socket \(c.daemon.socket)")
    fuzzCheck(c.tls.certFile.isEmpty == c.tls.keyFile.isEmpty, "tls: a certificate without its key")
    fuzzCheck(!c.homeAssistant.enabled || c.topics.layout == .hotcold, "homeassistant with the owntracks layout")
    fuzzCheck(!c.homeAssistant.prefix.isEmpty && !c.homeAssistant.prefix.contains("+") && !c.homeAssistant.prefix.contains("#"),
              "homeassistant.prefix \(c.homeAssistant.prefix)")
    fuzzCheck((1...1000).contains(c.ownTracks.waypoints) && c.ownTracks.radius >= 1, "owntracks \(c.ownTracks)")
}

func daemon(_ text: String) {
    let config: Configuration
    do {
        config = try ConfigLoader.parse(text, file: "fuzz.toml")
    } catch {
        checkLine(error, text)
        return
    }
    fuzzCheck((1...65535).contains(config.gpsd.port), "gpsd.port \(config.gpsd.port)")
    fuzzCheck(config.tracking.roamRadius.isFinite && config.tracking.roamRadius > 0,
              "tracking.roam_radius \(config.tracking.roamRadius)")
    fuzzCheck(config.api.syncIntervalSeconds.isFinite && config.api.syncIntervalSeconds > 0,
              "api.sync_interval \(config.api.syncIntervalSeconds)")
    let problems = config.engine.validationProblems()
    fuzzCheck(problems.isEmpty, "accepted an engine config with problems: \(problems)")
}

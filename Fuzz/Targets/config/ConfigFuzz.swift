// The TOML configuration loader (TOMLKit + our checks).
//
// Invariants: nothing traps; a bad file gives a `ConfigError` whose line, when given, is a line
// of the file; an accepted configuration holds only finite, in-range values (no inf or nan
// radius, interval or engine figure reaches the daemon).
import FuzzSupport
import HotColdConfig
import HotColdCore

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    fuzz(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

func fuzz(_ bytes: UnsafeRawBufferPointer) {
    let text = String(decoding: bytes, as: UTF8.self)
    let config: Configuration
    do {
        config = try ConfigLoader.parse(text, file: "fuzz.toml")
    } catch {
        if let line = error.line {
            // Count bytes, not Characters: Swift reads "\r\n" as one Character, TOML as a newline.
            let lines = text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).count
            fuzzCheck(line >= 1 && line <= lines + 1, "error names line \(line) of \(lines): \(error)")
        }
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

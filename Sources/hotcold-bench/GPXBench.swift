import Foundation
import HotColdStore
import HotColdTestSupport

/// GPX waypoint import parse (no database): a real Groundspeak pocket query (500 caches with
/// logs, 3.9 MB) through `GPXImporter.parse`, median of 7, and the process's peak resident size
/// afterwards. Run it alone (`hotcold-bench gpx`) so the peak is this bench's.
func benchGPX() {
    let data = try! Data(contentsOf: TestData.url("geocaches/cachebox3-6004539_HomeZone.gpx"))
    var places = 0
    let seconds = medianSeconds(runs: 7) {
        places = try! GPXImporter.parse(data, file: "HomeZone.gpx").places.count
    }
    let mb = Double(data.count) / 1e6
    print(String(format: "GPXImporter.parse pocket query: %d places, %.1f ms, %.1f MB/s (median of 7)",
                 places, seconds * 1e3, mb / seconds))
    print("peak RSS: \(peakResidentKiB()) KiB")
}

/// The process's peak resident set size so far (getrusage's ru_maxrss, KiB on Linux).
func peakResidentKiB() -> Int {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return usage.ru_maxrss
}

import Foundation
import HotColdTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Shared by the end-to-end visit tests: two bundled Big Things in Coffs Harbour, tracks
/// through and beside them, and readers for what the daemon and the CLI report.
enum VisitFixtures {
    static let windmill = (id: "halans:ab12c4892e", lat: -30.304254, lon: 153.101708)
    static let banana = (id: "halans:d0577fb8cf", lat: -30.274764, lon: 153.133797)

    /// Standing still at the windmill, from `startTime`.
    static func parkedAtWindmill(startTime: Date = Date(timeIntervalSince1970: 1_735_689_600)) -> SyntheticTrack {
        SyntheticTrack(start: (windmill.lat, windmill.lon), startTime: startTime, bearing: 0, speed: 0)
    }

    /// Standing still 1 km north of the windmill (well past its 150 m exit band).
    static func parkedAwayFromWindmill(startTime: Date) -> SyntheticTrack {
        SyntheticTrack(start: (windmill.lat + 1000 / 111_320, windmill.lon), startTime: startTime, bearing: 0, speed: 0)
    }

    /// Driving north through the windmill at 20 m/s, from 500 m south of it.
    static var throughWindmill: SyntheticTrack {
        SyntheticTrack(start: (windmill.lat - 500 / 111_320, windmill.lon), bearing: 0, speed: 20)
    }

    /// `hotcold visits --db DB --json`: each visit with its place.
    static func visits(_ db: String) throws -> [[String: Any]] {
        let r = try Subprocess.run(Binaries.url("hotcold"), ["visits", "--db", db, "--json"])
        try #require(r.status == 0, "\(r.stderr)")
        return (try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]]) ?? []
    }

    static func status(_ c: LineClient) throws -> [String: Any] {
        try c.send(#"{"cmd":"status"}"#)
        return try c.read(class: "STATUS")
    }

    static func visitStatus(_ c: LineClient) throws -> [String: Any] {
        (try status(c)["visits"] as? [String: Any]) ?? [:]
    }

    static func counter(_ c: LineClient, _ name: String) throws -> Int {
        ((try status(c)["counters"] as? [String: Any])?[name] as? Int) ?? -1
    }

    static func targetID(_ event: [String: Any]) -> String? {
        (event["target"] as? [String: Any])?["id"] as? String
    }

    /// Event lines until `stop` says so or `timeout` passes (replies to other commands skipped).
    static func events(_ c: LineClient, timeout: TimeInterval, stop: ([String: Any]) -> Bool) -> [[String: Any]] {
        var out: [[String: Any]] = []
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            guard let line = try? c.readLine(timeout: max(0.05, deadline.timeIntervalSinceNow)),
                  let o = LineClient.object(line) else { continue }
            guard ["PROXIMITY", "ARRIVED", "DEPARTED", "GPS"].contains(o["class"] as? String ?? "") else { continue }
            out.append(o)
            if stop(o) { break }
        }
        return out
    }
}

/// Waits for a condition with a generous deadline (a functional bound, not a timing check).
func eventually(_ timeout: Duration = .seconds(30), _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        usleep(20_000)
    }
    return condition()
}

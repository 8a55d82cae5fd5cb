import ArgumentParser
import Foundation
import HotColdCore
import HotColdProtocol
import HotColdUnix

/// `hotcold hunt`: tell the daemon exactly what to track.
struct HuntCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hunt",
        abstract: "Make hotcoldd track exactly these targets, whatever their distance.",
        discussion: """
            Each target is a stored place id or LAT,LON[,NAME].
            Examples:
              hotcold hunt GC2T9RW
              hotcold hunt halans:d0577fb8cf -30.3195,153.0895,"Bunch of Bananas"
              hotcold hunt --target=-30.2748,153.1338,"Big Banana"
            """)

    @OptionGroup var connection: ConnectionOptions

    @Option(name: .customLong("target"), parsing: .unconditionalSingleValue,
            help: "A target as --target LAT,LON[,NAME] (or a place id), as replay takes it (repeatable).")
    var targetOptions: [String] = []

    // Unrecognised words too, so that a southern latitude (-30.2,153.1) is a target, not an option.
    @Argument(parsing: .allUnrecognized, help: "Place ids or LAT,LON[,NAME].")
    var targetArguments: [String] = []

    var targets: [String] { targetOptions + targetArguments }

    func validate() throws {
        if targets.isEmpty { throw ValidationError("give at least one place id or LAT,LON[,NAME]") }
        for t in targetArguments where t.hasPrefix("--") {
            throw ValidationError("unknown option \(t.split(separator: "=").first ?? "")")
        }
        // A point is checked here, so a swapped or mistyped one is explained before the daemon sees it.
        for t in targets where HuntCommand.looksLikePoint(t) {
            let latLon = t.split(separator: ",", maxSplits: 2, omittingEmptySubsequences: false).prefix(2).joined(separator: ",")
            _ = try PlaceArguments.coordinate(latLon)
        }
    }

    /// "-30.2,153.1[,Name]": starts as a number does and has a comma (place ids do not start so).
    static func looksLikePoint(_ t: String) -> Bool {
        guard let c = t.first, c.isNumber || c == "-" || c == "+" || c == "." else { return false }
        return t.contains(",")
    }

    func run() throws {
        try TrackingRequest.send(connection, .hunt(HuntRequest(targets: targets)))
    }
}

/// `hotcold roam`: follow every stored place within a radius.
struct RoamCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "roam",
        abstract: "Make hotcoldd follow every stored place of some kinds within a radius (default 10km).",
        discussion: """
            Examples:
              hotcold roam
              hotcold roam 25km --kind bigthing --unseen
              hotcold roam 2km --kind geocache --favourites
            """)

    @OptionGroup var connection: ConnectionOptions

    @Argument(help: "Radius, e.g. 850m, 1.2km, 10km (a bare number is metres).")
    var radius: String = "10km"

    // A unit typed apart ("roam 10 km"), caught to say how to write it.
    @Argument(help: .hidden) var unit: String?

    @Option(name: .customLong("kind"), help: "Kinds to roam among (repeatable): bigthing, geocache, waypoint, location.",
            completion: .list(TargetKind.allValueStrings))
    var kinds: [String] = ["bigthing"]

    @Flag(help: "Only places you have not seen.")
    var unseen = false

    @Flag(help: "Only your favourites.")
    var favourites = false

    func validate() throws {
        _ = try PlaceArguments.metres(radius, unit: unit, limit: Limits.maxRadius)
    }

    func run() throws {
        let metres = try PlaceArguments.metres(radius, limit: Limits.maxRadius)
        try TrackingRequest.send(connection, .roam(RoamRequest(radius: metres, kinds: kinds, unseen: unseen, favourites: favourites)))
    }
}

enum TrackingRequest {
    /// Sends a hunt or roam and says what the daemon now tracks: for a roam, how many places it
    /// tracks within the radius of the last fix (from `status`), not every candidate on the planet.
    static func send(_ connection: ConnectionOptions, _ request: Request) throws {
        let c = try connection.connect()
        let reply = try DaemonLink.run { () throws(ClientError) in try c.call(request, expecting: TrackingReply.self, timeout: 60) }
        guard request.command == .roam, let radius = reply.radiusM else {
            print("hotcoldd now hunts \(count(reply.targets, "target")).")
            // A place asked for by its id is hunted even when it is gone: said, not refused.
            for g in reply.gone ?? [] {
                print("\(TerminalText.safe(g.name)) (\(TerminalText.safe(g.id))) is gone (\(TerminalText.safe(g.gone))): hunted as asked.")
            }
            return
        }
        let status = try? DaemonLink.run { () throws(ClientError) in try c.call(.status, expecting: StatusReply.self, timeout: 10) }
        print(roamSummary(radius: radius, candidates: reply.targets, status: status))
    }

    /// "hotcoldd now roams within 25 km: 3 places tracked of 476 candidates." and, without a fix,
    /// that it tracks none until one comes.
    static func roamSummary(radius: Double, candidates: Int, status: StatusReply?) -> String {
        let head = "hotcoldd now roams within \(DistanceFormat.text(radius))"
        let among = count(candidates, "candidate")
        guard let status else { return head + " among \(among)." }
        guard status.gps.lastFix != nil else { return head + ": no fix yet, so none of \(among) is tracked until one comes." }
        return head + ": \(count(status.tracking.tracked, "place")) tracked of \(among)."
    }

    /// "1 target", "3 targets".
    static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
}

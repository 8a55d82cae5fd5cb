import ArgumentParser
import Foundation
import HotColdCore
import HotColdProtocol

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
            """)

    @OptionGroup var connection: ConnectionOptions

    @Argument(parsing: .allUnrecognized, help: "Place ids or LAT,LON[,NAME].")
    var targets: [String]

    func validate() throws {
        if targets.isEmpty { throw ValidationError("give at least one place id or LAT,LON[,NAME]") }
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

    @Option(name: .customLong("kind"), help: "Kinds to roam among (repeatable): bigthing, geocache, waypoint, location.")
    var kinds: [String] = ["bigthing"]

    @Flag(help: "Only places you have not seen.")
    var unseen = false

    @Flag(help: "Only your favourites.")
    var favourites = false

    func validate() throws {
        guard let r = DistanceParser.metres(radius), r > 0, r <= Limits.maxRadius else {
            throw ValidationError("radius \"\(radius)\": expected a distance such as 10km or 850m, at most 20000km")
        }
    }

    func run() throws {
        guard let metres = DistanceParser.metres(radius) else { throw ValidationError("radius \"\(radius)\": expected a distance") }
        try TrackingRequest.send(connection, .roam(RoamRequest(radius: metres, kinds: kinds, unseen: unseen, favourites: favourites)))
    }
}

enum TrackingRequest {
    static func send(_ connection: ConnectionOptions, _ request: Request) throws {
        let c = try connection.connect()
        let reply = try DaemonLink.run { () throws(ClientError) in try c.call(request, expecting: TrackingReply.self, timeout: 60) }
        let verb = request.command == .hunt ? "hunts" : "roams among"
        var s = "hotcoldd now \(verb) \(reply.targets) targets"
        if let r = reply.radiusM { s += " within \(DistanceFormat.text(r))" }
        print(s + ".")
    }
}

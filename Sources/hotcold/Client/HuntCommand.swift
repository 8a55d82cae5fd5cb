import ArgumentParser
import Foundation
import HotColdCore

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

    @Option(help: "The daemon's socket (default $HOTCOLD_SOCKET or /run/hotcold/hotcold.sock).")
    var socket: String?

    @Argument(parsing: .allUnrecognized, help: "Place ids or LAT,LON[,NAME].")
    var targets: [String]

    func validate() throws {
        if targets.isEmpty { throw ValidationError("give at least one place id or LAT,LON[,NAME]") }
    }

    func run() throws {
        try TrackingRequest.send(socket: socket, command: "hunt") { o in
            o.addRaw("targets", json: "[" + targets.map(JSONLine.quoted).joined(separator: ",") + "]")
        }
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

    @Option(help: "The daemon's socket (default $HOTCOLD_SOCKET or /run/hotcold/hotcold.sock).")
    var socket: String?

    @Argument(help: "Radius, e.g. 850m, 1.2km, 10km (a bare number is metres).")
    var radius: String = "10km"

    @Option(name: .customLong("kind"), help: "Kinds to roam among (repeatable): bigthing, geocache, waypoint, location.")
    var kinds: [String] = ["bigthing"]

    @Flag(help: "Only places you have not seen.")
    var unseen = false

    @Flag(help: "Only your favourites.")
    var favourites = false

    func validate() throws {
        guard let r = DistanceParser.metres(radius), r > 0 else {
            throw ValidationError("radius \"\(radius)\": expected a distance such as 10km or 850m")
        }
    }

    func run() throws {
        try TrackingRequest.send(socket: socket, command: "roam") { o in
            o.add("radius", DistanceParser.metres(radius)!, decimals: 1)
            o.addRaw("kinds", json: "[" + kinds.map(JSONLine.quoted).joined(separator: ",") + "]")
            o.add("unseen", unseen)
            o.add("favourites", favourites)
        }
    }
}

enum TrackingRequest {
    static func send(socket: String?, command: String, _ fill: (inout JSONLine) -> Void) throws {
        do {
            let c = try DaemonConnection(path: DaemonConnection.defaultPath(socket))
            var o = JSONLine.object()
            o.add("cmd", command)
            fill(&o)
            try c.send(o.text)
            let reply = try c.reply("TRACKING")
            let obj = (try? JSONSerialization.jsonObject(with: Data(reply.utf8)) as? [String: Any]) ?? [:]
            var s = "hotcoldd now \(command == "hunt" ? "hunts" : "roams among") \(obj["targets"] ?? "?") targets"
            if let r = obj["radius_m"] as? Double { s += " within \(DistanceFormat.text(r))" }
            print(s + ".")
        } catch let e as CLIError {
            warn("hotcold \(command): \(e.description)")
            throw ExitCode(e.code)
        }
    }
}

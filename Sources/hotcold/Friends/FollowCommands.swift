import ArgumentParser
import Foundation
import HotColdCore
import HotColdProtocol

/// `USER/DEVICE` on the command line.
extension FriendID: ExpressibleByArgument {
    public init?(argument: String) { self.init(parsing: argument) }
}

/// `hotcold follow USER/DEVICE`: put a device's finds in your feed and the device on the radar.
struct FollowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "follow",
        abstract: "Follow a device on the fleet broker: its position on the friend radar, its finds in your feed.",
        discussion: """
            A device is USER/DEVICE as its hotcold-mqtt names itself ([topics] user and device), \
            or an OwnTracks phone's owntracks/USER/DEVICE. Follows are yours (your Unix user); \
            hotcold-mqtt subscribes to every device anyone here follows.
            Examples:
              hotcold follow jane/ute
              hotcold following
              hotcold unfollow jane/ute
            """)

    @OptionGroup var connection: ConnectionOptions
    @Argument(help: "The device, USER/DEVICE (each part 1-64 of A-Z a-z 0-9 . _ -).") var who: FriendID

    func run() throws {
        let c = try connection.connect()
        let r = try DaemonLink.run { () throws(ClientError) in try c.call(.follow(FollowRequest(who: who)), expecting: OKReply.self) }
        print(r.new == true ? "Following \(who)." : "Already following \(who).")
    }
}

struct UnfollowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unfollow",
        abstract: "Stop following a device.",
        discussion: "Example: hotcold unfollow jane/ute")

    @OptionGroup var connection: ConnectionOptions
    @Argument(help: "The device, USER/DEVICE.") var who: FriendID

    func run() throws {
        let c = try connection.connect()
        let r = try DaemonLink.run { () throws(ClientError) in
            try c.call(.follow(FollowRequest(who: who, follow: false)), expecting: OKReply.self)
        }
        print(r.new == true ? "No longer following \(who)." : "You were not following \(who).")
    }
}

/// `hotcold following`: the devices you follow, and which of them are on the radar now.
struct FollowingCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "following",
        abstract: "The devices you follow, with where each is on the friend radar.",
        discussion: """
            Examples:
              hotcold following
              hotcold following --all --json     # everyone's follows, as hotcold-mqtt sees them
            """)

    @OptionGroup var connection: ConnectionOptions
    @Flag(help: "Every user's follows (the union hotcold-mqtt subscribes to), with the version.") var all = false
    @Flag(help: "Print JSON instead of text.") var json = false

    func run() throws {
        let c = try connection.connect()
        let reply = try DaemonLink.run { () throws(ClientError) in
            try c.call(.following(FollowingRequest(all: all)), expecting: FollowingReply.self)
        }
        if json { return printJSON(WireCoding.line(reply)) }
        if reply.following.isEmpty {
            return FileHandle.standardError.write(Data("Not following anyone (hotcold follow USER/DEVICE).\n".utf8))
        }
        let radar = (try? DaemonLink.run { () throws(ClientError) in try c.call(.status, expecting: StatusReply.self) })?.friends ?? []
        for f in reply.following {
            let onRadar = radar.first { $0.who == f.who }
            print([f.who, FriendText.radar(onRadar), "since \(FriendText.ago(f.since, now: Date()))"].joined(separator: "  "))
        }
    }
}

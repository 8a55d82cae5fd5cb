import ArgumentParser
import Foundation
import HotColdCore
import HotColdProtocol

/// `hotcold feed`: the finds of the devices you follow (and your own), newest first.
struct FeedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feed",
        abstract: "Your friends' finds and your own, newest first, with their likes.",
        discussion: """
            Each line ends with the item's id, for hotcold like. Your own arrivals and ratings \
            are there too (shown as "you"), with who liked them.
            Examples:
              hotcold feed
              hotcold feed --world --limit 100     # everyone under the club prefix too
              hotcold feed --json
            """)

    @OptionGroup var connection: ConnectionOptions
    @Flag(help: "Every item the daemon holds (club members too), not only from devices you follow.") var world = false
    @Option(help: "How many items (1-200).") var limit = 50
    @Flag(help: "Print the FEED reply as JSON.") var json = false

    func validate() throws {
        if !(1...FriendLimits.feedPage).contains(limit) { throw ValidationError("--limit must be 1 to \(FriendLimits.feedPage).") }
    }

    func run() throws {
        let c = try connection.connect()
        let reply = try DaemonLink.run { () throws(ClientError) in
            try c.call(.feed(FeedRequest(world: world, limit: limit)), expecting: FeedReply.self, timeout: 30)
        }
        if json { return printJSON(WireCoding.line(reply)) }
        if reply.items.isEmpty {
            return FileHandle.standardError.write(Data((world ? "The feed is empty.\n" : "Nothing yet from you or the devices you follow (hotcold follow USER/DEVICE, or --world).\n").utf8))
        }
        let now = Date()
        for e in reply.items { print(FriendText.line(e, now: now)) }
    }
}

/// `hotcold like ITEM` / `hotcold unlike ITEM`.
struct LikeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "like",
        abstract: "Like a feed item (its author hears of it through hotcold-mqtt).",
        discussion: "Example: hotcold like jane/ute/1234   (the id hotcold feed shows at the end of each line)")

    @OptionGroup var connection: ConnectionOptions
    @Argument(help: "The item's id, USER/DEVICE/SEQ.", transform: LikeCommand.item) var item: FeedItemID

    static func item(_ s: String) throws -> FeedItemID {
        guard let id = FeedItemID(parsing: s) else { throw ValidationError("\(s) is not a feed item id USER/DEVICE/SEQ (hotcold feed shows them)") }
        return id
    }

    static func send(_ connection: ConnectionOptions, _ item: FeedItemID, like: Bool) throws {
        let c = try connection.connect()
        let r = try DaemonLink.run { () throws(ClientError) in
            try c.call(.like(LikeRequest(item: item, like: like)), expecting: OKReply.self)
        }
        switch (like, r.new == true) {
        case (true, true): print("Liked \(item).")
        case (true, false): print("You already like \(item).")
        case (false, true): print("No longer liking \(item).")
        case (false, false): print("You did not like \(item).")
        }
    }

    func run() throws { try Self.send(connection, item, like: true) }
}

struct UnlikeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unlike",
        abstract: "Take back a like.",
        discussion: "Example: hotcold unlike jane/ute/1234")

    @OptionGroup var connection: ConnectionOptions
    @Argument(help: "The item's id, USER/DEVICE/SEQ.", transform: LikeCommand.item) var item: FeedItemID

    func run() throws { try LikeCommand.send(connection, item, like: false) }
}

/// The friends' commands.
enum FriendCommands {
    static let all: [any ParsableCommand.Type] = [
        FollowCommand.self, UnfollowCommand.self, FollowingCommand.self, FeedCommand.self, LikeCommand.self, UnlikeCommand.self,
    ]
}

import ArgumentParser

/// `hotcold`: the client and offline tools. Each subcommand lives in its own file.
@main
struct HotCold: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hotcold",
        abstract: "Hunt Big Things and geocaches: replay tracks, browse places, talk to hotcoldd.",
        subcommands: [ReplayCommand.self, WatchCommand.self, StatusCommand.self, HuntCommand.self, RoamCommand.self] + StoreCommands.all)
}

import ArgumentParser

struct ReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "replay", abstract: "Replay a recorded track.")
    func run() async throws {}
}

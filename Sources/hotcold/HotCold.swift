import ArgumentParser
import Foundation

/// `hotcold`: the client and offline tools. Each subcommand lives in its own file.
@main
struct HotCold: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hotcold",
        abstract: "Hunt Big Things and geocaches: replay tracks, browse places, talk to hotcoldd.",
        discussion: """
            Exit status follows sysexits.h: 0 done, 64 bad command line, 65 bad input data, \
            66 a file named is missing or unreadable, 69 hotcoldd (or the web API) unreachable, \
            70 internal error, 73 cannot create a file, 74 I/O error, 75 busy or over a quota \
            (try later), 76 client and daemon disagree on the protocol, 77 not allowed, \
            78 configuration error.
            """,
        subcommands: [ReplayCommand.self, WatchCommand.self, StatusCommand.self, HuntCommand.self, RoamCommand.self, WebCommand.self] + StoreCommands.all)

    /// ArgumentParser's `main`, except that a subcommand's failure is printed as
    /// "hotcold COMMAND: what went wrong" and ends the process with ``ExitStatus``'s status for
    /// it, in this one place for every subcommand.
    static func main() async {
        var command: any ParsableCommand
        do {
            command = try parseAsRoot()
        } catch {
            exit(withError: error)
        }
        do {
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch where String(reflecting: type(of: error)).hasPrefix("ArgumentParser.") {
            // Its own: help, --version, ValidationError, ExitCode (statuses it already chose).
            exit(withError: error)
        } catch {
            let name = type(of: command).configuration.commandName ?? "hotcold"
            warn("hotcold \(name): \(error)")
            Foundation.exit(ExitStatus(for: error).rawValue)
        }
    }
}

import ArgumentParser
import Foundation
import HotColdProtocol

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
        version: "hotcold \(ProtocolVersion.release) (protocol \(ProtocolVersion.major).\(ProtocolVersion.minor))",
        subcommands: [ReplayCommand.self, WatchCommand.self, StatusCommand.self, HuntCommand.self, RoamCommand.self, WebCommand.self]
            + StoreCommands.all + FriendCommands.all)

    /// ArgumentParser's `main`, except that every failure, of the command line or of the work,
    /// is printed as "hotcold COMMAND: what went wrong" (a command line's with that command's
    /// usage) and ends the process with ``ExitStatus``'s status for it, in this one place for
    /// every subcommand.
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        let subcommand = CommandLineMistakes.subcommand(in: arguments, root: self)
        let name = subcommand?.configuration.commandName
        if let mistake = CommandLineMistakes.check(arguments, root: self) {
            fail(arguments.first == "help" ? "help" : name, mistake, usage: usage(of: subcommand))
        }
        var command: any ParsableCommand
        do {
            command = try parseAsRoot(arguments)
        } catch {
            let code = exitCode(for: error)
            // Help, --version and completion scripts are successes, printed as ArgumentParser prints them.
            if code == .success { exit(withError: error) }
            var text = fullMessage(for: error)
            if text.hasPrefix("Error: ") { text.removeFirst("Error: ".count) }
            warn("hotcold\(name.map { " " + $0 } ?? ""): " + text.trimmingCharacters(in: .newlines))
            Foundation.exit(code.rawValue)
        }
        do {
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch let e as ValidationError {
            // A command line found wrong only at work (--here without a fix): the same form.
            fail(name, e.message, usage: usage(of: subcommand))
        } catch let e as ExitCode {
            Foundation.exit(e.rawValue)
        } catch let e as CleanExit {
            exit(withError: e)
        } catch {
            // ArgumentParser's own requests and refusals can also surface here (help asked for
            // through a parent command); its exit code tells them from the work's failures.
            let code = exitCode(for: error)
            if code == .success { exit(withError: error) }
            if code == .validationFailure {
                var text = fullMessage(for: error)
                if text.hasPrefix("Error: ") { text.removeFirst("Error: ".count) }
                warn("hotcold\(name.map { " " + $0 } ?? ""): " + text.trimmingCharacters(in: .newlines))
                Foundation.exit(code.rawValue)
            }
            warn("hotcold \(name ?? "hotcold"): \(error)")
            Foundation.exit(ExitStatus(for: error).rawValue)
        }
    }

    /// Prints "hotcold COMMAND: message" and the usage, and ends with status 64.
    static func fail(_ name: String?, _ message: String, usage: String) -> Never {
        warn("hotcold\(name.map { " " + $0 } ?? ""): \(message)\n\(usage)")
        Foundation.exit(ExitStatus.usage.rawValue)
    }

    /// "Usage: hotcold add …" and where the help is, as ArgumentParser words it.
    static func usage(of subcommand: (any ParsableCommand.Type)?) -> String {
        guard let subcommand, let name = subcommand.configuration.commandName else {
            return "Usage: hotcold <command>\n  See 'hotcold --help' for the commands."
        }
        return "Usage: hotcold \(subcommand.usageString())\n  See 'hotcold \(name) --help' for more information."
    }
}

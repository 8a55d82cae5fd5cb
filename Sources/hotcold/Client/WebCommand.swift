import ArgumentParser
import Foundation
import HotColdProtocol
import HotColdUnix

/// `hotcold web`: pair a phone or car display with hotcold-web, list and revoke pairings.
///
/// The token is minted by hotcold-web itself, on its control socket, which learns who asks
/// from the kernel (SO_PEERCRED): the device may write only when that user is a writer on the
/// daemon's socket. This command only carries the request and shows the answer (the link as
/// text and as a QR code). The lines are the protocol's (`WebControlRequest` and its replies,
/// one definition for both ends); the client does not link the web server.
struct WebCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "web",
        abstract: "Pair a phone or car display with hotcold-web (the live page), list or revoke pairings.",
        discussion: """
            hotcold-web serves the hunt as a live page. From the box itself it is readable without \
            pairing; another device opens the link `pair` prints (or scans its QR code).

            Examples:
              hotcold web pair --name phone
              hotcold web devices
              hotcold web revoke phone
            """,
        subcommands: [WebPairCommand.self, WebDevicesCommand.self, WebRevokeCommand.self],
        defaultSubcommand: WebPairCommand.self)
}

struct WebControlOptions: ParsableArguments {
    @Option(help: "hotcold-web's control socket.")
    var control: String = "/run/hotcold-web/control.sock"

    /// Sends one request and decodes its reply as `M`; an ERROR reply throws its message, with
    /// the exit status its code means (77 for `not_allowed`).
    func ask<M: FixedClassMessage>(_ request: WebControlRequest, expecting: M.Type) throws -> M {
        let c: LineClient
        do { c = try LineClient(path: control) } catch {
            throw CLIError("cannot reach hotcold-web at \(control) (is hotcold-web running? --control PATH)", code: .unavailable)
        }
        try c.send(request.line)
        guard let line = try c.readLine(timeout: 10) else {
            throw CLIError("hotcold-web closed the control connection without a reply", code: .unavailable)
        }
        do { return try WireCoding.decode(M.self, from: line) } catch {
            guard WireCoding.className(of: line) == ErrorReply.wireClass else {
                throw CLIError("hotcold-web sent a reply this client cannot read", code: .protocolError)
            }
            throw CLIError("hotcold-web: \(error.message)", code: ExitStatus(for: error))
        }
    }

    /// An ISO-8601 time from hotcold-web, as a person reads it: the box's own zone, medium date
    /// and short time ("23 Feb 2027, 10:04"); the text itself when it does not parse.
    static func localTime(_ d: Date) -> String {
        let f = DateFormatter()
        f.dateStyle = .medium
        f.timeStyle = .short
        f.timeZone = .current
        return f.string(from: d) + " " + (TimeZone.current.abbreviation(for: d) ?? "")
    }
}

struct WebPairCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pair",
        abstract: "Pair a device: prints a link (and its QR code) that keeps a token in the device's browser.",
        discussion: """
            Open the link on the phone or car display (or scan the QR code); the page then works \
            from that device until the pairing expires or is revoked. The device may change \
            things (hunt, roam, seen, rate, note) only when you are a writer on hotcoldd's socket.

            Examples:
              hotcold web pair --name phone
              hotcold web pair --name "car display" --no-qr
            """)

    @OptionGroup var options: WebControlOptions
    @Option(help: "A name for the device (1 to 40 letters, digits, spaces, - _ .).") var name = "device"
    @Flag(help: "Print the link only, no QR code.") var noQr = false

    /// A bad name is a usage mistake (64), said before asking hotcold-web: not "not allowed" (77).
    func validate() throws {
        guard WebControlRequest.isDeviceName(name) else {
            throw ValidationError("--name \"\(name)\": \(WebControlRequest.nameRule)")
        }
    }

    func run() throws {
        let r = try options.ask(.pair(name: name), expecting: WebPairedReply.self)
        if !noQr, !r.qr.isEmpty { print(r.qr.joined(separator: "\n")) }
        print("Open on the device: \(r.url)")
        print("Paired \(r.name) for \(r.user) until \(WebControlOptions.localTime(r.expires)); "
            + (r.writer ? "it may change the hunt." : "read-only (you are not a writer on hotcoldd's socket)."))
        if let warning = Self.onlyHereWarning(r.url) { warn(warning) }
    }

    /// A link to 127.0.0.1, ::1 or localhost opens only on the box itself: no phone can follow it.
    /// Says so, and which setting gives an address the device can reach.
    static func onlyHereWarning(_ url: String) -> String? {
        guard let host = URLComponents(string: url)?.host?.lowercased() else { return nil }
        let local = host == "localhost" || host.hasPrefix("127.") || host == "::1" || host == "[::1]" || host.hasSuffix(".localhost")
        guard local else { return nil }
        return """
            warning: this link (\(host)) opens only on this box, not on a phone or car display. In \
            hotcold-web's configuration (/usr/local/etc/hotcold/hotcold-web.toml) set [listen] address to \
            the box's address on the device's network and public_url to match (for example address = \
            "10.42.0.1", public_url = "http://10.42.0.1:8470"), restart hotcold-web and pair again.
            """
    }
}

struct WebDevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices", abstract: "List the devices you paired (root: all).",
        discussion: "Example: hotcold web devices")

    @OptionGroup var options: WebControlOptions

    func run() throws {
        let list = try options.ask(.list, expecting: WebDevicesReply.self).devices
        if list.isEmpty { print("No paired devices.") }
        // Tabs separate the columns: one inside a name is escaped with the rest.
        for d in list { print("\(TerminalText.safe(d.name))\t\(TerminalText.safe(d.user))\t\(d.writer ? "writer" : "read-only")\tuntil \(WebControlOptions.localTime(d.expires))") }
    }
}

struct WebRevokeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revoke", abstract: "Unpair the devices of this name (their links stop working at once).",
        discussion: "Example: hotcold web revoke phone")

    @OptionGroup var options: WebControlOptions
    @Argument(help: "The device's name.") var name: String

    func run() throws {
        guard WebControlRequest.isDeviceName(name) else {
            throw ValidationError("\"\(name)\": \(WebControlRequest.nameRule)")
        }
        let count = try options.ask(.revoke(name: name), expecting: WebRevokedReply.self).count
        guard count > 0 else {
            // A typo must not look like success: name the devices there are.
            let names = (try? options.ask(.list, expecting: WebDevicesReply.self))?.devices.map(\.name) ?? []
            let known = Array(Set(names)).sorted()
            throw CLIError("no paired device is named \(name); " + (known.isEmpty ? "none is paired"
                : "paired: \(known.joined(separator: ", ")) (hotcold web devices lists them)") + ". Nothing was revoked.")
        }
        print("Revoked \(count) device\(count == 1 ? "" : "s") named \(name).")
    }
}

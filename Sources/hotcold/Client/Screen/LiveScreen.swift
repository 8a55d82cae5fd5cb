import ArgumentParser
import Foundation
import Glibc
import HotColdProtocol
import HotColdScreen

/// `hotcold watch --screen`: the shell around `ScreenModel` and `ScreenRenderer`. One poll(2)
/// loop waits on the keyboard, the signal pipe and the daemon's socket; it asks for `status`
/// every second (GPS state, the tracked set, from which every distance and ETA is redrawn) and
/// applies events as they come. `n`/Tab and `p` move the focus between targets, `a` returns it
/// to the automatic choice.
///
/// When the daemon goes away the screen says "daemon gone, reconnecting…" and tries again every
/// two seconds rather than exiting: an in-car display outlives a daemon restart. `q` quits with
/// status 0; SIGINT, SIGTERM and SIGHUP quit with 128 + the signal; each restores the terminal
/// first. Ctrl-Z restores it before stopping and takes the screen back on `fg`.
struct LiveScreen {
    let socketPath: String
    let style: ScreenStyle
    let terminal: Terminal
    var model: ScreenModel
    var client: LineClient?
    var nextStatus = Date.distantPast
    var nextConnect = Date.distantPast
    var readKeys = true
    /// In plain style, the last printed frame as drawn at a fixed age (see ``redraw()``).
    var lastPlainKey: [String] = []

    static let statusInterval = 1.0
    static let reconnectInterval = 2.0
    /// Longest line accepted from the daemon (a STATUS with thousands of roam targets fits).
    static let maxLineBytes = 8 << 20
    /// Lines handled before the screen is redrawn and the keyboard looked at again.
    static let linesPerTurn = 2000

    /// Runs until `q` or a signal; throws `ExitCode` for a signal, `CLIError` when the daemon
    /// cannot be reached at start (so a wrong `--socket` is an error, not a blank screen).
    static func run(socket: String?, noColor: Bool, alone: Bool) throws {
        guard alone else { throw CLIError("--screen shows every target and event: it takes no --json, --count, --class or --target", code: 64) }
        guard isatty(STDOUT_FILENO) == 1 else {
            throw CLIError("--screen needs a terminal on stdout (use hotcold watch without --screen to pipe events)", code: 64)
        }
        let env = ProcessInfo.processInfo.environment
        let term = env["TERM"] ?? ""
        let style: ScreenStyle = term.isEmpty || term == "dumb" ? .plain
            : (noColor || !(env["NO_COLOR"] ?? "").isEmpty) ? .monochrome : .colour
        let path = LineClient.defaultPath(socket)
        var screen = LiveScreen(socketPath: path, style: style, terminal: Terminal(style: style),
                                model: ScreenModel(socketPath: path, now: Date()))
        screen.client = try DaemonLink.connect(socket: path)
        try DaemonLink.run { () throws(ClientError) in try screen.subscribe() }
        let status = screen.loop()
        if status != 0 { throw ExitCode(status) }
    }

    /// Asks for events and a first status on the current connection.
    mutating func subscribe() throws(ClientError) {
        guard let c = client else { return }
        c.maxLineBytes = Self.maxLineBytes
        try c.send(.watch(WatchRequest(enable: true)))
        try c.send(.status)
        nextStatus = Date().addingTimeInterval(Self.statusInterval)
    }

    /// The poll loop; returns the exit status.
    mutating func loop() -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        guard let signals = SignalPipe.install([SIGINT, SIGTERM, SIGHUP, SIGWINCH, SIGTSTP, SIGCONT]) else {
            return 71
        }
        terminal.enter()
        defer { terminal.leave() }
        var busy = false
        while true {
            let now = Date()
            model.now = now
            keepLinked(now)
            redraw()
            var fds = [pollfd(fd: signals, events: Int16(POLLIN), revents: 0)]
            if readKeys { fds.append(pollfd(fd: terminal.input, events: Int16(POLLIN), revents: 0)) }
            if let c = client { fds.append(pollfd(fd: c.fd, events: Int16(POLLIN), revents: 0)) }
            // Wake at least every quarter second: the fix's age ticks and status is due.
            _ = poll(&fds, nfds_t(fds.count), busy ? 0 : 250)
            for s in SignalPipe.drain(signals) {
                switch s {
                case SIGWINCH: terminal.invalidate()
                case SIGCONT: terminal.invalidate()
                case SIGTSTP: suspend()
                default: return 128 + s
                }
            }
            if readKeys, let quit = readKeysOnce(), quit { return 0 }
            busy = readDaemon()
        }
    }

    /// Reconnects when due, and asks for status every second.
    mutating func keepLinked(_ now: Date) {
        if client == nil, now >= nextConnect {
            nextConnect = now.addingTimeInterval(Self.reconnectInterval)
            do {
                client = try LineClient(path: socketPath)
                try subscribe()
            } catch {
                drop(error.description)
            }
        }
        if let c = client, now >= nextStatus {
            nextStatus = now.addingTimeInterval(Self.statusInterval)
            do { try c.send(.status) } catch { drop(error.description) }
        }
    }

    mutating func drop(_ reason: String) {
        client = nil
        model.lose(reason)
    }

    mutating func redraw() {
        let size = terminal.size()
        let frame = ScreenRenderer.render(model, width: size.width, height: size.height, style: style)
        if style == .plain {
            // A printed frame stays on the display: print one only when something other than the
            // clock (the fix's age ticking) changed. The key is the frame drawn at a fixed age:
            // fresh, or just past the age at which the figures count as old.
            var still = model
            if let seen = model.gps.fixSeenAt { still.now = seen.addingTimeInterval(model.isStale ? ScreenModel.staleAfter + 1 : 0) }
            let key = ScreenRenderer.render(still, width: size.width, height: size.height, style: style)
            guard key != lastPlainKey else { return }
            lastPlainKey = key
        }
        terminal.draw(frame)
    }

    /// Reads what the keyboard sent: true when it asked to quit (`q`, `Q`, or Ctrl-C as a byte).
    mutating func readKeysOnce() -> Bool? {
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = buffer.withUnsafeMutableBytes { read(terminal.input, $0.baseAddress, $0.count) }
        if n == 0, isatty(terminal.input) != 1 { readKeys = false }  // stdin at end (not a terminal)
        guard n > 0 else { return nil }
        if buffer[..<n].contains(where: { $0 == UInt8(ascii: "q") || $0 == UInt8(ascii: "Q") || $0 == 3 }) { return true }
        if buffer[..<n].contains(12) { terminal.invalidate() }  // Ctrl-L repaints
        // The focus keys the footer shows: n (or Tab) next, p previous, a back to automatic.
        for byte in buffer[..<n] {
            switch byte {
            case UInt8(ascii: "n"), UInt8(ascii: "N"), 9: model.cycleFocus(by: 1)
            case UInt8(ascii: "p"), UInt8(ascii: "P"): model.cycleFocus(by: -1)
            case UInt8(ascii: "a"), UInt8(ascii: "A"): model.clearFocusChoice()
            default: break
            }
        }
        return false
    }

    /// Handles the daemon's lines already here; true when more may be waiting (stopped early).
    mutating func readDaemon() -> Bool {
        guard let c = client else { return false }
        for _ in 0..<Self.linesPerTurn {
            let line: String?
            do {
                line = try c.readLine(timeout: 0.001)
            } catch {
                if case .timeout = error { return false }
                drop(error.description)
                return false
            }
            guard let line else {
                drop("hotcoldd closed the connection")
                return false
            }
            handle(line)
        }
        return true
    }

    /// One line from the daemon: STATUS and events change the model; anything that does not
    /// decode is left out rather than shown half-read.
    mutating func handle(_ line: String) {
        if WireCoding.className(of: line) == StatusReply.wireClass {
            if let s = try? WireCoding.decode(StatusReply.self, from: line) { model.apply(s) }
        } else if let e = try? EventMessage.decode(line: line) {
            model.apply(e.event)
        }
    }

    /// Ctrl-Z: give the terminal back, stop, and take it again when continued.
    func suspend() {
        terminal.leave()
        SignalPipe.reset(SIGTSTP)
        raise(SIGTSTP)
        SignalPipe.handle(SIGTSTP)
        terminal.enter()
    }
}

import Glibc
import HotColdScreen

/// The terminal the screen draws on: its size, a mode without line editing or echo (so `q`
/// arrives at once), the alternate screen, and getting all of that back on the way out.
///
/// In `plain` style (`TERM=dumb`) no escape sequence is sent: each changed frame is printed
/// after the last, which any display can show.
final class Terminal {
    let input = STDIN_FILENO
    let output = STDOUT_FILENO
    let style: ScreenStyle
    private var saved: termios?
    private(set) var active = false
    /// The lines on screen now (redraws send only the rows that changed).
    private var shown: [String] = []

    init(style: ScreenStyle) { self.style = style }

    var fullScreen: Bool { style != .plain }

    /// Columns and rows from TIOCGWINSZ; 80×24 when the terminal does not say.
    func size() -> (width: Int, height: Int) {
        var ws = winsize()
        if ioctl(output, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_col > 0, ws.ws_row > 0 {
            return (Int(ws.ws_col), Int(ws.ws_row))
        }
        return (80, 24)
    }

    /// Keys without Enter and without echo; the alternate screen with the cursor hidden.
    /// Signals stay on (Ctrl-C is SIGINT, which the screen catches to restore all this).
    func enter() {
        guard !active else { return }
        if isatty(input) == 1 {
            var t = termios()
            if tcgetattr(input, &t) == 0 {
                saved = t
                t.c_lflag &= ~tcflag_t(ICANON | ECHO)
                withUnsafeMutableBytes(of: &t.c_cc) { cc in
                    cc[Int(VMIN)] = 0
                    cc[Int(VTIME)] = 0
                }
                tcsetattr(input, TCSAFLUSH, &t)
            }
        }
        if fullScreen { write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J") }
        shown = []
        active = true
    }

    /// Everything `enter` changed, put back: cursor shown, main screen, termios as found.
    func leave() {
        guard active else { return }
        if fullScreen { write("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l") }
        if var t = saved { tcsetattr(input, TCSAFLUSH, &t) }
        active = false
    }

    /// Forgets what is on screen, so the next `draw` repaints every row (after a resize).
    func invalidate() {
        if fullScreen, active { write("\u{1B}[2J") }
        shown = []
    }

    /// Shows `lines`: in full-screen, each changed row rewritten in place and the rest of the
    /// screen cleared; in plain style, the whole frame printed when it differs from the last.
    func draw(_ lines: [String]) {
        guard lines != shown else { return }
        var out = ""
        if fullScreen {
            for (i, line) in lines.enumerated() where i >= shown.count || shown[i] != line {
                out += "\u{1B}[\(i + 1);1H\(line)\u{1B}[0m\u{1B}[K"
            }
            if lines.count < shown.count || shown.isEmpty {
                out += "\u{1B}[\(lines.count + 1);1H\u{1B}[J"
            }
        } else {
            out = lines.joined(separator: "\n") + "\n\n"
        }
        shown = lines
        write(out)
    }

    /// Writes all of `text`, retrying after signals; gives up quietly if the terminal is gone.
    func write(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { Glibc.write(output, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return
            }
            bytes = bytes.dropFirst(n)
        }
    }
}

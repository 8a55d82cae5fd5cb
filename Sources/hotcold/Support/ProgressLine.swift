import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One line of progress on stderr for long work (a replay, an upload, an import), redrawn in
/// place with "\r" and cleared when the work ends. Only when stderr is a terminal: in a pipe,
/// a file or a test, nothing at all is written, so scripts see exactly what they saw before.
/// Redraws are throttled to ten a second, so a replay of millions of fixes pays one clock read
/// per update and almost never a write.
///
/// ```swift
/// let progress = ProgressLine("replay drive.nmea")
/// defer { progress.finish() }
/// progress.update(done: reader.bytesRead, of: reader.fileSize, count: fixes, counting: "fixes")
/// ```
final class ProgressLine {
    /// What the line starts with: the command and its file.
    let label: String
    /// False when stderr is not a terminal: every call is then a no-op.
    let isShown: Bool
    private let fd: Int32
    private let started = ContinuousClock.now
    /// Starts at `started`: the first line is drawn a tenth of a second in, so work that is
    /// over sooner shows nothing, and the first rate is not a guess from one item.
    private lazy var lastDraw = started
    private var drawn = false

    /// The shortest time between two redraws.
    static let interval = Duration.milliseconds(100)

    /// `unlessOutputIsTerminal`: for work whose stdout streams to the same screen (a replay's
    /// events), where the output already shows it moving and a line redrawn under it would tear it.
    init(_ label: String, unlessOutputIsTerminal: Bool = false, fd: Int32 = STDERR_FILENO) {
        self.label = label
        self.fd = fd
        isShown = isatty(fd) == 1 && !(unlessOutputIsTerminal && isatty(STDOUT_FILENO) == 1)
    }

    /// `done` of `total` bytes (nil: unknown), with a running count ("52 000 fixes") and the
    /// rates of both. Throttled: most calls return after reading the clock, without
    /// evaluating `done`.
    func update(done doneNow: @autoclosure () -> Int, of total: Int?, count: Int? = nil,
                counting noun: String = "", verb: String = "") {
        guard isShown, due() else { return }
        let done = doneNow()
        let seconds = max(Self.seconds(ContinuousClock.now - started), 0.001)
        var parts: [String] = []
        var bytes = (verb.isEmpty ? "" : verb + " ") + Self.bytes(done)
        if let total, total > 0 {
            bytes += " of \(Self.bytes(total)) (\(Int(min(100, max(0, Double(done) / Double(total) * 100))))%)"
        }
        parts.append(bytes)
        if let count {
            parts.append("\(Self.grouped(count)) \(noun), \(Self.grouped(Int(min(Double(count) / seconds, 1e15)))) \(noun)/s")
        } else {
            parts.append("\(Self.bytes(Int(min(Double(done) / seconds, 1e15))))/s")
        }
        draw("\(label): " + parts.joined(separator: ", "))
    }

    /// A new phase ("importing…"), drawn at once: it may last long with no updates after it.
    func phase(_ text: String) {
        guard isShown else { return }
        lastDraw = ContinuousClock.now
        draw("\(label): \(text)")
    }

    /// Clears the line (when one was drawn), so what is printed next starts at column 0.
    func finish() {
        guard isShown, drawn else { return }
        write("\r\u{1B}[K")
        drawn = false
    }

    deinit { finish() }

    // MARK: - Drawing

    private func due() -> Bool {
        let now = ContinuousClock.now
        if now - lastDraw < Self.interval { return false }
        lastDraw = now
        return true
    }

    /// "\r", the text cut to the terminal's width (a wrapped line could not be redrawn in
    /// place), then erase to the end of the line.
    private func draw(_ text: String) {
        let width = Self.columns(fd)
        let fitted = text.count < width ? text : String(text.prefix(max(1, width - 2))) + "…"
        write("\r" + fitted + "\u{1B}[K")
        drawn = true
    }

    private func write(_ s: String) {
        let bytes = Array(s.utf8)
        var off = 0
        while off < bytes.count {
            let n = bytes[off...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return }
            off += n
        }
    }

    // MARK: - Formatting

    static func columns(_ fd: Int32) -> Int {
        var size = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }

    /// "812 B", "40.1 kB", "12.3 MB", "1.02 GB" (decimal units, as `ls -h --si` and file managers show).
    static func bytes(_ n: Int) -> String {
        let units = ["B", "kB", "MB", "GB", "TB"]
        var v = Double(max(0, n))
        var i = 0
        while v >= 1000 && i < units.count - 1 { v /= 1000; i += 1 }
        if i == 0 { return "\(Int(v)) B" }
        return String(format: v < 10 ? "%.2f" : v < 100 ? "%.1f" : "%.0f", v) + " " + units[i]
    }

    /// 1234567 → "1 234 567" (a thin space would not survive every terminal font).
    static func grouped(_ n: Int) -> String {
        let digits = Array(String(n.magnitude))
        var out = ""
        for (i, d) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(" ") }
            out.append(d)
        }
        return (n < 0 ? "-" : "") + out
    }
}

import Foundation
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// Long work shows one line of progress on stderr when stderr is a terminal (a real
/// pseudo-terminal here, through Tests/Clients/on_terminal.py), redrawn with "\r" and cleared
/// at the end; in a pipe there is none of it and the output is the same.
@Suite(.offCooperativePool) struct ProgressLineTests {
    struct TerminalRun {
        var status: Int32
        var stdout: String
        /// Everything that reached the terminal, escapes included.
        var terminal: String
        var runner: String
    }

    /// Runs `hotcold ARGS` with stderr on a pseudo-terminal `columns` wide, stdout on a file.
    func onTerminal(_ args: [String], columns: Int = 200) throws -> TerminalRun {
        let dir = try TemporaryDirectory("hotcold-pty")
        defer { dir.remove() }
        let r = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/python3"),
                                   [TestData.repo("Tests/Clients/on_terminal.py").path, dir.path("out"), dir.path("err"),
                                    String(columns), "--", Binaries.url("hotcold").path] + args)
        return TerminalRun(status: r.status,
                           stdout: (try? String(contentsOfFile: dir.path("out"), encoding: .utf8)) ?? "",
                           terminal: (try? String(contentsOfFile: dir.path("err"), encoding: .utf8)) ?? "",
                           runner: r.stderr)
    }

    /// The lines drawn, each the text between a "\r" and the erase-to-end-of-line after it.
    func drawnLines(_ terminal: String) -> [String] {
        terminal.components(separatedBy: "\r").compactMap { part in
            guard let end = part.range(of: "\u{1B}[K") else { return nil }
            let text = String(part[..<end.lowerBound])
            return text.isEmpty ? nil : text
        }
    }

    /// The demo drive six times over (2.7 MB): long enough that the first line (drawn a tenth
    /// of a second in) is drawn even on a fast machine; the repeats are out-of-order fixes,
    /// dropped, but their bytes are read.
    static let longTrack: String = {
        let demo = (try? Data(contentsOf: TestData.repo("demo/coffs-harbour-drive.nmea"))) ?? Data()
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("progress-\(getpid())-drive.nmea").path
        _ = FileManager.default.createFile(atPath: path, contents: Data(repeating: 0, count: 0) + Array(repeating: demo, count: 6).reduce(Data(), +))
        return path
    }()

    var replayArgs: [String] {
        ["replay", Self.longTrack,
         "--targets", TestData.repo("data/bigthings.json").path, "--roam", "10km"]
    }

    @Test func replayShowsBytesFixesAndRateOnATerminalAndNothingInAPipe() throws {
        let tty = try onTerminal(replayArgs)
        #expect(tty.status == 0, "\(tty.runner)\(tty.terminal)")
        let lines = drawnLines(tty.terminal)
        #expect(!lines.isEmpty, "no progress drawn: \(tty.terminal.debugDescription)")
        for l in lines {
            #expect(l.hasPrefix("replay progress-"), "\(l)")
            #expect(l.contains(" kB of ") || l.contains(" MB ("), "\(l)")
            #expect(l.contains(" fixes/s"), "\(l)")
        }
        // Cleared at the end: the last thing on the terminal erases the line.
        // (The repeated drive's dropped fixes are reported after it, on a line of their own.)
        let cleared = tty.terminal.hasSuffix("\r\u{1B}[K") || tty.terminal.contains("\r\u{1B}[Khotcold replay: dropped")
        #expect(cleared, "\(tty.terminal.suffix(80).debugDescription)")

        let piped = try Subprocess.run(Binaries.url("hotcold"), replayArgs)
        #expect(piped.status == 0)
        #expect(!piped.stderr.contains("\r") && !piped.stderr.contains("replay progress-"), "\(piped.stderr.debugDescription)")
        // Progress never reaches stdout: the events are byte for byte the same.
        #expect(tty.stdout == piped.stdout)
        #expect(!piped.stdout.isEmpty)
    }

    @Test func aNarrowTerminalGetsALineThatFits() throws {
        let tty = try onTerminal(replayArgs, columns: 40)
        #expect(tty.status == 0)
        let lines = drawnLines(tty.terminal)
        #expect(!lines.isEmpty)
        for l in lines { #expect(l.count < 40, "\(l)") }
    }

    @Test func anImportThroughTheDaemonShowsTheUploadThenImporting() throws {
        let daemon = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:1"])
        defer { daemon.stop() }
        let file = TestData.url("geocaches/cachebox3-6004539_HomeZone.gpx").path
        let tty = try onTerminal(["import", file, "--socket", daemon.socketPath])
        #expect(tty.status == 0, "\(tty.runner)\(tty.terminal)")
        let lines = drawnLines(tty.terminal)
        #expect(lines.contains("import cachebox3-6004539_HomeZone.gpx: importing…"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("import cachebox3-6004539_HomeZone.gpx: uploaded ") && $0.contains(" of 3.95 MB (") },
                "\(lines)")
        #expect(tty.stdout.hasPrefix("Imported \(file) (gpx)"), "\(tty.stdout)")
        // The summary and warnings after it start on a clean line.
        #expect(tty.terminal.contains("\r\u{1B}[K"))

        let again = try Subprocess.run(Binaries.url("hotcold"), ["import", file, "--socket", daemon.socketPath])
        #expect(again.status == 0)
        #expect(!again.stderr.contains("\r") && !again.stderr.contains("importing…"), "\(again.stderr.debugDescription)")
    }
}

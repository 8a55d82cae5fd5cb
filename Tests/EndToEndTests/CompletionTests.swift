import Foundation
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// Issue 18: `hotcold`'s shell completions, asked of the shells themselves: file names for
/// file arguments and options, the values of --class, --kind, --format and --sort.
@Suite(.offCooperativePool) struct CompletionTests {
    /// A folder with two files to complete, and bash's answer for `line` (its last word the one
    /// completed) through the script the binary writes.
    func bash(_ line: [String], in dir: TemporaryDirectory) throws -> [String] {
        let script = dir.path("hotcold.bash")
        let gen = try Subprocess.run(Binaries.url("hotcold"), ["--generate-completion-script", "bash"])
        try gen.stdout.write(toFile: script, atomically: true, encoding: .utf8)
        let words = line.map { "'\($0)'" }.joined(separator: " ")
        let program = """
            cd '\(dir.url.path)' && source '\(script)'
            COMP_WORDS=(\(words)); COMP_CWORD=$((${#COMP_WORDS[@]}-1)); COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}
            COMPREPLY=(); _hotcold hotcold "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\\n' "${COMPREPLY[@]}" | sort
            """
        let r = try Subprocess.run(URL(fileURLWithPath: "/bin/bash"), ["-c", program],
                                   environment: ["PATH": Binaries.directory.path + ":/usr/bin:/bin"])
        #expect(r.status == 0, "\(r.stderr)")
        return r.stdout.split(separator: "\n").map(String.init)
    }

    func files(_ dir: TemporaryDirectory) throws {
        for f in ["trip.gpx", "track.nmea"] { try "".write(toFile: dir.path(f), atomically: true, encoding: .utf8) }
    }

    @Test("bash completes file names and option values")
    func bashCompletions() throws {
        let dir = try TemporaryDirectory("hotcold-completion")
        defer { dir.remove() }
        try files(dir)
        for line in [["hotcold", "import", "tr"], ["hotcold", "replay", "tr"], ["hotcold", "replay", "x", "--targets", "tr"],
                     ["hotcold", "fav", "x", "--db", "tr"], ["hotcold", "export", "--format", "gpx", "--output", "tr"],
                     ["hotcold", "submit", "x", "--photo", "tr"]] {
            #expect(try bash(line, in: dir) == ["track.nmea", "trip.gpx"], "\(line)")
        }
        #expect(try bash(["hotcold", "watch", "--class", ""], in: dir) == ["ARRIVED", "DEPARTED", "FEED", "FIX", "FOLLOWING_CHANGED", "GPS", "LIKE", "LIKE_RECEIVED", "PROXIMITY", "QUEUED", "RECORD"])
        #expect(try bash(["hotcold", "roam", "--kind", ""], in: dir) == ["bigthing", "geocache", "location", "waypoint"])
        #expect(try bash(["hotcold", "things", "--kind", "g"], in: dir) == ["geocache"])
        #expect(try bash(["hotcold", "things", "--sort", ""], in: dir) == ["distance", "name", "rating"])
        #expect(try bash(["hotcold", "export", "--format", ""], in: dir) == ["geojson", "gpx"])
        #expect(try bash(["hotcold", "replay", "x", "--format", ""], in: dir) == ["json", "text"])
        #expect(try bash(["hotcold", "stat"], in: dir) == ["status"])
    }

    @Test("fish completes file names and option values", .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/fish")))
    func fishCompletions() throws {
        let dir = try TemporaryDirectory("hotcold-completion")
        defer { dir.remove() }
        try files(dir)
        let script = dir.path("hotcold.fish")
        let gen = try Subprocess.run(Binaries.url("hotcold"), ["--generate-completion-script", "fish"])
        try gen.stdout.write(toFile: script, atomically: true, encoding: .utf8)
        func fish(_ line: String) throws -> [String] {
            let r = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/fish"),
                                       ["--no-config", "-c", "cd '\(dir.url.path)'; source '\(script)'; complete -C '\(line)'"],
                                       environment: ["PATH": Binaries.directory.path + ":/usr/bin:/bin", "HOME": dir.url.path])
            #expect(r.status == 0, "\(r.stderr)")
            return r.stdout.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }.sorted()
        }
        #expect(try fish("hotcold import tr") == ["track.nmea", "trip.gpx"])
        #expect(try fish("hotcold replay x --targets tr") == ["track.nmea", "trip.gpx"])
        #expect(try fish("hotcold fav x --db tr") == ["track.nmea", "trip.gpx"])
        #expect(try fish("hotcold watch --class ") == ["ARRIVED", "DEPARTED", "FEED", "FIX", "FOLLOWING_CHANGED", "GPS", "LIKE", "LIKE_RECEIVED", "PROXIMITY", "QUEUED", "RECORD"])
        #expect(try fish("hotcold things --sort ") == ["distance", "name", "rating"])
    }

    /// zsh's listing after TAB at the end of `line`, from an interactive zsh driven through a
    /// pseudo-terminal (zsh/zpty), with the script the binary writes on its fpath.
    func zsh(_ line: String, in dir: TemporaryDirectory) throws -> String {
        let program = """
            zmodload zsh/zpty
            zpty z "zsh -f -i"
            zpty -w z "PS1=''; fpath=('\(dir.url.path)' \\$fpath); PATH='\(Binaries.directory.path)':\\$PATH; autoload -Uz compinit; compinit -u -D; cd '\(dir.url.path)'"
            zpty -w z "print READY"
            zpty -r z line '*READY*'
            zpty -w -n z $'\(line)\\t'
            sleep 2
            out=""
            while zpty -r -t z chunk; do out+=$chunk; done
            print -r -- "$out"
            zpty -d z
            """
        let r = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/zsh"), ["-f", "-c", program])
        #expect(r.status == 0, "\(r.stderr)")
        return r.stdout
    }

    @Test("zsh completes file names and option values", .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/zsh")))
    func zshCompletions() throws {
        let dir = try TemporaryDirectory("hotcold-completion")
        defer { dir.remove() }
        try files(dir)
        let gen = try Subprocess.run(Binaries.url("hotcold"), ["--generate-completion-script", "zsh"])
        try gen.stdout.write(toFile: dir.path("_hotcold"), atomically: true, encoding: .utf8)
        let classes = try zsh("hotcold watch --class ", in: dir)
        #expect(["PROXIMITY", "ARRIVED", "DEPARTED", "GPS"].allSatisfy { classes.contains($0) }, "\(classes)")
        let files = try zsh("hotcold import tr", in: dir)
        #expect(files.contains("track.nmea") && files.contains("trip.gpx"), "\(files)")
        let sorts = try zsh("hotcold things --sort ", in: dir)
        #expect(["distance", "name", "rating"].allSatisfy { sorts.contains($0) }, "\(sorts)")
    }
}

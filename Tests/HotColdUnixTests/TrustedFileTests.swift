import Foundation
import Glibc
import HotColdDaemonTesting
import HotColdTestSupport
import HotColdUnix
import Testing

/// The programs' own files are read and written as untrusted: a link planted where a state
/// file or its temporary goes is never followed, a FIFO never blocks a start, and a file of
/// the wrong owner, mode or size is named, never silently used or dropped.
@Suite(.offCooperativePool) struct TrustedFileTests {
    @Test func aWriteReplacesAPlantedLinkAtTheTemporaryAndNeverWritesThroughIt() throws {
        let dir = try TemporaryDirectory("trusted")
        defer { dir.remove() }
        let victim = dir.path("victim")
        try Data("precious\n".utf8).write(to: URL(fileURLWithPath: victim))
        let target = dir.path("event-seq")
        #expect(symlink(victim, target + ".tmp") == 0)
        try TrustedFile.write(Array("42\n".utf8), to: target)
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "42\n")
        #expect(!TrustedFile.exists(target + ".tmp"))
    }

    @Test func aLinkAtTheFileItselfIsReplacedNotFollowed() throws {
        let dir = try TemporaryDirectory("trusted")
        defer { dir.remove() }
        let victim = dir.path("victim")
        try Data("precious\n".utf8).write(to: URL(fileURLWithPath: victim))
        let target = dir.path("tracking.json")
        #expect(symlink(victim, target) == 0)
        #expect(TrustedFile.read(target, limit: 1024) == .failure(.symlink(target)))
        try TrustedFile.write(Array("{}".utf8), to: target)
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
        var st = stat()
        #expect(lstat(target, &st) == 0 && st.st_mode & S_IFMT == S_IFREG)
    }

    @Test func aFIFOIsRefusedAtOnceInsteadOfBlocking() throws {
        let dir = try TemporaryDirectory("trusted")
        defer { dir.remove() }
        let fifo = dir.path("unclean-stop.json")
        #expect(mkfifo(fifo, 0o600) == 0)
        guard case .failure(let p) = TrustedFile.read(fifo, limit: 1024) else {
            Issue.record("a FIFO was read"); return
        }
        #expect(p == .notRegular(fifo, kind: "FIFO"), "\(p)")
        #expect(p.description.contains("FIFO"))
    }

    @Test func sizeModeAndMissingAreNamed() throws {
        let dir = try TemporaryDirectory("trusted")
        defer { dir.remove() }
        let big = dir.path("big")
        try Data(repeating: 0x41, count: 5000).write(to: URL(fileURLWithPath: big))
        chmod(big, 0o600)
        #expect(TrustedFile.read(big, limit: 4096) == .failure(.tooLarge(big, size: 5000, limit: 4096)))
        #expect(try TrustedFile.read(big, limit: 5000).get().count == 5000)
        chmod(big, 0o666)
        guard case .failure(.writableByOthers) = TrustedFile.read(big, limit: 5000) else {
            Issue.record("a world-writable file was trusted"); return
        }
        #expect(TrustedFile.read(dir.path("none"), limit: 10) == .failure(.missing(dir.path("none"))))
        let aside = try #require(TrustedFile.setAside(big))
        #expect(aside == big + ".unusable" && !TrustedFile.exists(big) && TrustedFile.exists(aside))
    }

    @Test func aFileOfAnotherOwnerIsRefusedWhenTheOwnerMatters() throws {
        try #require(geteuid() == 0, "chown needs root")
        let dir = try TemporaryDirectory("trusted")
        defer { dir.remove() }
        let file = dir.path("devices.json")
        try Data("[]".utf8).write(to: URL(fileURLWithPath: file))
        chmod(file, 0o600)
        #expect(chown(file, 65534, 65534) == 0)
        #expect(TrustedFile.read(file, limit: 100, owner: 1000) == .failure(.wrongOwner(file, owner: 65534, expected: 1000)))
        #expect(try TrustedFile.read(file, limit: 100, owner: nil).get() == Array("[]".utf8))
    }

    @Test func aPrivateDirectoryIsCreatedAndOneOthersCanWriteIsRefused() throws {
        let dir = try TemporaryDirectory("trusted")
        defer { dir.remove() }
        let state = dir.path("a/b/state")
        try PrivateDirectory.ensure(state, mode: 0o750)
        var st = stat()
        #expect(lstat(state, &st) == 0 && st.st_mode & 0o777 == 0o750)
        chmod(state, 0o1777)
        #expect(throws: TrustedFile.Problem.writableByOthers(state, mode: UInt32(S_IFDIR | 0o1777))) {
            try PrivateDirectory.ensure(state)
        }
        // A link to it (systemd's DynamicUser layout) leads to the directory that is checked.
        let link = dir.path("link")
        #expect(symlink(state, link) == 0)
        #expect(throws: TrustedFile.Problem.writableByOthers(link, mode: UInt32(S_IFDIR | 0o1777))) {
            try PrivateDirectory.ensure(link)
        }
        chmod(state, 0o700)
        try PrivateDirectory.ensure(link)
    }
}

@Suite(.offCooperativePool) struct BootClockAndTerminalTextTests {
    @Test func theBootClockCountsOnlyWithinItsBoot() {
        let a = BootClock.now()
        #expect(a.boot.count >= 32, "boot id \(a.boot)")
        let later = BootInstant(boot: a.boot, seconds: a.seconds + 90)
        #expect(BootClock.elapsed(since: a, now: later) == 90)
        #expect(BootClock.elapsed(since: later, now: a) == nil, "an instant in this boot's future")
        #expect(BootClock.elapsed(since: BootInstant(boot: "another", seconds: 1), now: a) == nil)
    }

    @Test func controlCharactersAreShownNotObeyed() {
        #expect(TerminalText.safe("Big Banana") == "Big Banana")
        #expect(TerminalText.safe("Big\u{1B}[2JBanana") == "Big\\e[2JBanana")
        #expect(TerminalText.safe("a\u{7}b\u{9B}c\u{202E}d") == "a\\u{7}b\\u{9B}c\\u{202E}d")
        #expect(TerminalText.safeLines("one\ntwo\u{1B}") == "one\ntwo\\e")
        #expect(TerminalText.safe("Café 🦘") == "Café 🦘")
    }
}

import Foundation
import HotColdTestSupport
import Testing

@Suite("systemd units and make install")
struct UnitFileTests {
    static let analyze = "/usr/bin/systemd-analyze"
    static var haveAnalyze: Bool { FileManager.default.isExecutableFile(atPath: analyze) }

    /// The units with ExecStart pointing at the built binary (verify wants it to exist).
    func stagedUnits() throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory("hotcold-units")
        for unit in ["hotcoldd.service", "hotcoldd.socket"] {
            let text = try String(contentsOf: TestData.repo("systemd/\(unit)"), encoding: .utf8)
                .replacingOccurrences(of: "/usr/local/bin/hotcoldd", with: Binaries.url("hotcoldd").path)
            try text.write(toFile: dir.path(unit), atomically: true, encoding: .utf8)
        }
        return dir
    }

    @Test("systemd-analyze verify prints nothing", .enabled(if: haveAnalyze))
    func verify() throws {
        let dir = try stagedUnits()
        defer { dir.remove() }
        let r = try Subprocess.run(URL(fileURLWithPath: Self.analyze),
                                   ["verify", dir.path("hotcoldd.service"), dir.path("hotcoldd.socket")],
                                   currentDirectory: dir.url)
        #expect(r.status == 0)
        #expect(r.stdout + r.stderr == "")
    }

    @Test("systemd-analyze security rates the service at most 1.5", .enabled(if: haveAnalyze))
    func security() throws {
        let dir = try stagedUnits()
        defer { dir.remove() }
        let r = try Subprocess.run(URL(fileURLWithPath: Self.analyze),
                                   ["security", "--offline=true", "--no-pager", dir.path("hotcoldd.service")],
                                   currentDirectory: dir.url)
        let line = try #require(r.stdout.split(separator: "\n").first { $0.contains("Overall exposure level") },
                                "\(r.stdout)\(r.stderr)")
        // "→ Overall exposure level for hotcoldd.service: 1.3 OK 🙂"
        let score = try #require(line.split(separator: ":").last?.split(separator: " ").first.flatMap { Double($0) })
        print("FIGURES systemd-analyze security exposure: \(score)")
        #expect(score <= 1.5)
    }

    @Test("the units say what the daemon relies on")
    func contents() throws {
        let service = try String(contentsOf: TestData.repo("systemd/hotcoldd.service"), encoding: .utf8)
        for needle in ["Type=notify", "NotifyAccess=main", "WatchdogSec=", "Restart=on-failure",
                       "Wants=gpsd.socket", "After=gpsd.socket gpsd.service", "DynamicUser=yes",
                       "StateDirectory=hotcold", "RuntimeDirectory=hotcold", "LogsDirectory=hotcold",
                       "ExecStart=/usr/local/bin/hotcoldd --config /usr/local/etc/hotcold/hotcoldd.toml",
                       "ExecReload=/bin/kill -HUP $MAINPID", "LimitNOFILE=4096", "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6"] {
            #expect(service.contains(needle), "hotcoldd.service lacks \(needle)")
        }
        let socket = try String(contentsOf: TestData.repo("systemd/hotcoldd.socket"), encoding: .utf8)
        for needle in ["ListenStream=/run/hotcold/hotcold.sock", "SocketMode=0660", "SocketGroup=hotcold"] {
            #expect(socket.contains(needle), "hotcoldd.socket lacks \(needle)")
        }
    }

    @Test("make install DESTDIR= PREFIX= installs the built binaries, units and data with sane modes",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/make")))
    func makeInstall() throws {
        let dest = try TemporaryDirectory("hotcold-destdir")
        defer { dest.remove() }
        let r = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/make"),
                                   ["-s", "install", "DESTDIR=\(dest.url.path)", "PREFIX=/usr/local",
                                    "BINDIR_SRC=\(Binaries.directory.path)"],
                                   currentDirectory: TestData.repoRoot)
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        let fm = FileManager.default
        func mode(_ rel: String) -> Int? {
            (try? fm.attributesOfItem(atPath: dest.url.path + rel))?[.posixPermissions] as? Int
        }
        #expect(mode("/usr/local/bin/hotcoldd") == 0o755)
        #expect(mode("/usr/local/bin/hotcold") == 0o755)
        #expect(mode("/usr/local/lib/systemd/system/hotcoldd.service") == 0o644)
        #expect(mode("/usr/local/lib/systemd/system/hotcoldd.socket") == 0o644)
        #expect(mode("/usr/local/lib/sysusers.d/hotcold.conf") == 0o644)
        #expect(mode("/usr/local/share/hotcold") == 0o755)
        if fm.fileExists(atPath: TestData.repo("config/hotcoldd.toml").path) {
            #expect(mode("/usr/local/etc/hotcold/hotcoldd.toml") == 0o644)
        }
        if let data = fm.enumerator(atPath: TestData.repo("data").path) {
            for case let f as String in data where !f.hasPrefix(".") {
                var isDir: ObjCBool = false
                _ = fm.fileExists(atPath: TestData.repo("data/\(f)").path, isDirectory: &isDir)
                #expect(mode("/usr/local/share/hotcold/\(f)") == (isDir.boolValue ? 0o755 : 0o644), "\(f)")
            }
        }
        let installed = try String(contentsOfFile: dest.url.path + "/usr/local/lib/systemd/system/hotcoldd.service", encoding: .utf8)
        #expect(installed.contains("ExecStart=/usr/local/bin/hotcoldd --config /usr/local/etc/hotcold/hotcoldd.toml"))
        #expect(!fm.fileExists(atPath: dest.url.path + "/usr/local/lib/systemd/system/hotcoldd.service.tmp"))

        // Another PREFIX rewrites the unit's paths.
        let r2 = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/make"),
                                    ["-s", "install", "DESTDIR=\(dest.url.path)", "PREFIX=/opt/hotcold",
                                     "BINDIR_SRC=\(Binaries.directory.path)"],
                                    currentDirectory: TestData.repoRoot)
        #expect(r2.status == 0, "\(r2.stderr)")
        let opt = try String(contentsOfFile: dest.url.path + "/opt/hotcold/lib/systemd/system/hotcoldd.service", encoding: .utf8)
        #expect(opt.contains("ExecStart=/opt/hotcold/bin/hotcoldd --config /opt/hotcold/etc/hotcold/hotcoldd.toml"))
    }

    @Test("make install refuses to run without built binaries, naming what is missing")
    func makeInstallWithoutBinaries() throws {
        let dest = try TemporaryDirectory("hotcold-destdir")
        defer { dest.remove() }
        let r = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/make"),
                                   ["-s", "install", "DESTDIR=\(dest.url.path)", "BINDIR_SRC=\(dest.url.path)/nowhere"],
                                   currentDirectory: TestData.repoRoot)
        #expect(r.status != 0)
        #expect(r.stderr.contains("nowhere/hotcoldd is missing"))
    }
}

import Foundation
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

@Suite("systemd units (daemon, sync, MQTT bridge, web page) and make install", .offCooperativePool)
struct UnitFileTests {
    static let analyze = "/usr/bin/systemd-analyze"
    static var haveAnalyze: Bool { FileManager.default.isExecutableFile(atPath: analyze) }

    /// The units with ExecStart pointing at the built binary (verify wants it to exist).
    func stagedUnits() throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory("hotcold-units")
        for unit in ["hotcoldd.service", "hotcoldd.socket", "hotcold-sync.service", "hotcold-mqtt.service", "hotcold-web.service"] {
            let text = try String(contentsOf: TestData.repo("systemd/\(unit)"), encoding: .utf8)
                .replacingOccurrences(of: "/usr/local/bin/hotcoldd ", with: Binaries.url("hotcoldd").path + " ")
                .replacingOccurrences(of: "/usr/local/bin/hotcold-sync ", with: Binaries.url("hotcold-sync").path + " ")
                .replacingOccurrences(of: "/usr/local/bin/hotcold-mqtt ", with: Binaries.url("hotcold-mqtt").path + " ")
                .replacingOccurrences(of: "/usr/local/bin/hotcold-web ", with: Binaries.url("hotcold-web").path + " ")
            try text.write(toFile: dir.path(unit), atomically: true, encoding: .utf8)
        }
        return dir
    }

    @Test("systemd-analyze verify prints nothing", .enabled(if: haveAnalyze))
    func verify() throws {
        let dir = try stagedUnits()
        defer { dir.remove() }
        let r = try Subprocess.run(URL(fileURLWithPath: Self.analyze),
                                   ["verify", dir.path("hotcoldd.service"), dir.path("hotcoldd.socket"),
                                    dir.path("hotcold-sync.service"), dir.path("hotcold-mqtt.service"), dir.path("hotcold-web.service")],
                                   currentDirectory: dir.url)
        #expect(r.status == 0)
        #expect(r.stdout + r.stderr == "")
    }

    /// hotcoldd at most 1.3 (no network but gpsd on localhost); hotcold-sync and hotcold-mqtt,
    /// which must reach the internet or a broker, at most 2.0.
    @Test("systemd-analyze security rates hotcoldd at most 1.3 and the bridges at most 2.0", .enabled(if: haveAnalyze))
    func security() throws {
        let dir = try stagedUnits()
        defer { dir.remove() }
        for (unit, limit) in [("hotcoldd.service", 1.3), ("hotcold-sync.service", 2.0), ("hotcold-mqtt.service", 2.0),
                                 ("hotcold-web.service", 2.0)] {
            let r = try Subprocess.run(URL(fileURLWithPath: Self.analyze),
                                       ["security", "--offline=true", "--no-pager", dir.path(unit)],
                                       currentDirectory: dir.url)
            let line = try #require(r.stdout.split(separator: "\n").first { $0.contains("Overall exposure level") },
                                    "\(r.stdout)\(r.stderr)")
            // "→ Overall exposure level for hotcoldd.service: 1.3 OK 🙂"
            let score = try #require(line.split(separator: ":").last?.split(separator: " ").first.flatMap { Double($0) })
            print("FIGURES systemd-analyze security exposure of \(unit): \(score)")
            #expect(score <= limit, "\(unit)")
        }
    }

    @Test("the units say what the daemon relies on")
    func contents() throws {
        let service = try String(contentsOf: TestData.repo("systemd/hotcoldd.service"), encoding: .utf8)
        for needle in ["Type=notify", "NotifyAccess=main", "WatchdogSec=", "Restart=on-failure",
                       "Wants=gpsd.socket", "After=hotcoldd.socket gpsd.socket gpsd.service", "DynamicUser=yes",
                       "StateDirectory=hotcold", "LogsDirectory=hotcold", "Requires=hotcoldd.socket",
                       "ExecStart=/usr/local/bin/hotcoldd --config /usr/local/etc/hotcold/hotcoldd.toml",
                       "ExecReload=/bin/kill -HUP $MAINPID", "LimitNOFILE=4096", "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6",
                       "IPAddressDeny=any", "IPAddressAllow=localhost", "SocketBindDeny=any"] {
            #expect(service.contains(needle), "hotcoldd.service lacks \(needle)")
        }
        let sync = try String(contentsOf: TestData.repo("systemd/hotcold-sync.service"), encoding: .utf8)
        for needle in ["ExecStart=/usr/local/bin/hotcold-sync --config /usr/local/etc/hotcold/hotcoldd.toml",
                       "LoadCredential=api-token:/usr/local/etc/hotcold/api-token", "DynamicUser=yes",
                       "SupplementaryGroups=hotcold", "SocketBindDeny=any", "Restart=on-failure"] {
            #expect(sync.contains(needle), "hotcold-sync.service lacks \(needle)")
        }
        let mqtt = try String(contentsOf: TestData.repo("systemd/hotcold-mqtt.service"), encoding: .utf8)
        for needle in ["ExecStart=/usr/local/bin/hotcold-mqtt --config /usr/local/etc/hotcold/hotcold-mqtt.toml",
                       "DynamicUser=yes", "SupplementaryGroups=hotcold", "StateDirectory=hotcold-mqtt",
                       "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6 AF_NETLINK", "SocketBindDeny=any",
                       "LoadCredential=mqtt-password:", "hotcoldd.service", "Wants=network-online.target hotcoldd.socket"] {
            #expect(mqtt.contains(needle), "hotcold-mqtt.service lacks \(needle)")
        }
        let web = try String(contentsOf: TestData.repo("systemd/hotcold-web.service"), encoding: .utf8)
        for needle in ["ExecStart=/usr/local/bin/hotcold-web --config /usr/local/etc/hotcold/hotcold-web.toml",
                       "User=hotcold-web", "SupplementaryGroups=hotcold", "StateDirectory=hotcold-web", "RuntimeDirectory=hotcold-web",
                       "MemoryMax=", "SocketBindAllow=tcp:8470", "SocketBindDeny=any", "IPAddressDeny=any",
                       "IPAddressAllow=localhost", "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6"] {
            #expect(web.contains(needle), "hotcold-web.service lacks \(needle)")
        }
        #expect(!web.contains("PrivateUsers=yes"), "hotcold-web reads its pairing peers' uids: no private user namespace")
        // Members of "hotcold" reach the daemon's socket and hotcold-web's control socket: no
        // transient user's private runtime directory (systemd puts those under /run/private).
        func setting(_ unit: String, _ key: String) -> Bool {
            unit.split(separator: "\n").contains { $0.hasPrefix(key + "=") }
        }
        #expect(!setting(service, "RuntimeDirectory"), "hotcoldd.service: /run/hotcold is the socket unit's")
        #expect(!setting(web, "DynamicUser"), "hotcold-web.service: its control socket's directory must be reachable")
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
        #expect(mode("/usr/local/bin/hotcold-sync") == 0o755)
        #expect(mode("/usr/local/bin/hotcold-mqtt") == 0o755)
        #expect(mode("/usr/local/lib/systemd/system/hotcold-mqtt.service") == 0o644)
        #expect(mode("/usr/local/bin/hotcold-web") == 0o755)
        #expect(mode("/usr/local/lib/systemd/system/hotcold-web.service") == 0o644)
        #expect(mode("/usr/local/etc/hotcold/hotcold-web.toml") == 0o644)
        #expect(mode("/usr/local/etc/hotcold/hotcold-mqtt.toml") == 0o644)
        #expect(mode("/usr/local/lib/systemd/system/hotcold-sync.service") == 0o644)
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
        try checkManPagesAndCompletions(under: dest.url.path + "/usr/local")

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
        // … and the configuration's paths too (issue 31: they kept /usr/local).
        let web = try String(contentsOfFile: dest.url.path + "/opt/hotcold/etc/hotcold/hotcold-web.toml", encoding: .utf8)
        #expect(web.contains("\"/opt/hotcold/etc/hotcold/hotcoldd.toml\"") && !web.contains("/usr/local/"), "\(web)")
        // The companions start the daemon's socket they need (issue 31).
        for unit in ["hotcold-mqtt.service", "hotcold-web.service", "hotcold-sync.service"] {
            let text = try String(contentsOfFile: dest.url.path + "/opt/hotcold/lib/systemd/system/\(unit)", encoding: .utf8)
            #expect(text.contains("Wants=") && text.range(of: #"Wants=[^\n]*hotcoldd\.socket"#, options: .regularExpression) != nil, "\(unit)")
        }
    }

    /// hotcold's subcommands, from the built binary's own description of itself.
    static func subcommands() throws -> [String] {
        let r = try Subprocess.run(Binaries.url("hotcold"), ["--experimental-dump-help"])
        let root = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        let command = root?["command"] as? [String: Any]
        let names = ((command?["subcommands"] as? [[String: Any]]) ?? []).compactMap { $0["commandName"] as? String }
        guard names.count > 10 else { throw TestFailure("hotcold --experimental-dump-help listed \(names)") }
        return names.filter { $0 != "help" }
    }

    /// The man pages and the three shells' completions are installed, readable, and name every
    /// subcommand; bash loads its file without an error and then completes `hotcold`.
    func checkManPagesAndCompletions(under prefix: String) throws {
        let subcommands = try Self.subcommands()
        let fm = FileManager.default
        func text(_ rel: String) -> String {
            let mode = (try? fm.attributesOfItem(atPath: prefix + rel))?[.posixPermissions] as? Int
            #expect(mode == 0o644, "\(rel): mode \(mode.map { String($0, radix: 8) } ?? "missing")")
            return (try? String(contentsOfFile: prefix + rel, encoding: .utf8)) ?? ""
        }
        for page in ["hotcold", "hotcoldd", "hotcold-sync", "hotcold-mqtt"] {
            let man = text("/share/man/man1/\(page).1")
            #expect(man.contains(".Dt \(page.uppercased()) 1"), "\(page).1 is not an mdoc page for section 1")
            #expect(man.contains(".Sh NAME") && man.contains(".Sh SYNOPSIS"), "\(page).1")
        }
        let man = text("/share/man/man1/hotcold.1")
        for s in subcommands { #expect(man.contains(s), "hotcold.1 does not mention \(s)") }

        let bashFile = prefix + "/share/bash-completion/completions/hotcold"
        let bash = text("/share/bash-completion/completions/hotcold")
        let loaded = try Subprocess.run(URL(fileURLWithPath: "/bin/bash"),
                                        ["-c", "set -e; source \"$1\"; complete -p hotcold", "bash", bashFile])
        #expect(loaded.status == 0 && loaded.stderr.isEmpty, "\(loaded.stderr)")
        #expect(loaded.stdout.contains("hotcold"), "\(loaded.stdout)")
        let zsh = text("/share/zsh/site-functions/_hotcold")
        #expect(zsh.hasPrefix("#compdef hotcold"), "\(zsh.prefix(80))")
        let fish = text("/share/fish/vendor_completions.d/hotcold.fish")
        #expect(fish.contains("complete -c 'hotcold'") || fish.contains("complete -c hotcold"), "\(fish.prefix(200))")
        for s in subcommands {
            #expect(bash.contains(s), "bash completion lacks \(s)")
            #expect(zsh.contains(s), "zsh completion lacks \(s)")
            #expect(fish.contains(s), "fish completion lacks \(s)")
        }
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

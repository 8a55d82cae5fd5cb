import Foundation
import HotColdTestSupport
import Testing

@Suite("hotcold-mqtt.service and make install")
struct BridgeUnitFileTests {
    static let analyze = "/usr/bin/systemd-analyze"
    static var haveAnalyze: Bool { FileManager.default.isExecutableFile(atPath: analyze) }

    func stagedUnit() throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory("hotcold-mqtt-unit")
        let text = try String(contentsOf: TestData.repo("systemd/hotcold-mqtt.service"), encoding: .utf8)
            .replacingOccurrences(of: "/usr/local/bin/hotcold-mqtt", with: Binaries.url("hotcold-mqtt").path)
        try text.write(toFile: dir.path("hotcold-mqtt.service"), atomically: true, encoding: .utf8)
        return dir
    }

    @Test("systemd-analyze verify prints nothing", .enabled(if: haveAnalyze))
    func verify() throws {
        let dir = try stagedUnit()
        defer { dir.remove() }
        let r = try Subprocess.run(URL(fileURLWithPath: Self.analyze), ["verify", dir.path("hotcold-mqtt.service")],
                                   currentDirectory: dir.url)
        #expect(r.status == 0)
        #expect(r.stdout + r.stderr == "")
    }

    @Test("systemd-analyze security rates the bridge at most 2.0", .enabled(if: haveAnalyze))
    func security() throws {
        let dir = try stagedUnit()
        defer { dir.remove() }
        let r = try Subprocess.run(URL(fileURLWithPath: Self.analyze),
                                   ["security", "--offline=true", "--no-pager", dir.path("hotcold-mqtt.service")],
                                   currentDirectory: dir.url)
        let line = try #require(r.stdout.split(separator: "\n").first { $0.contains("Overall exposure level") },
                                "\(r.stdout)\(r.stderr)")
        let score = try #require(line.split(separator: ":").last?.split(separator: " ").first.flatMap { Double($0) })
        print("FIGURES systemd-analyze security exposure hotcold-mqtt.service: \(score)")
        #expect(score <= 2.0)
    }

    @Test("the unit asks for what the bridge needs and no more")
    func contents() throws {
        let s = try String(contentsOf: TestData.repo("systemd/hotcold-mqtt.service"), encoding: .utf8)
        for needle in ["ExecStart=/usr/local/bin/hotcold-mqtt --config /usr/local/etc/hotcold/hotcold-mqtt.toml",
                       "DynamicUser=yes", "SupplementaryGroups=hotcold", "StateDirectory=hotcold-mqtt",
                       "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6 AF_NETLINK", "SocketBindDeny=any",
                       "LoadCredential=mqtt-password:", "After=hotcoldd.service"] {
            #expect(s.contains(needle), "hotcold-mqtt.service lacks \(needle)")
        }
    }

    @Test("make install installs the bridge, its unit and its configuration",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/make")))
    func makeInstall() throws {
        let dest = try TemporaryDirectory("hotcold-mqtt-destdir")
        defer { dest.remove() }
        let r = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/make"),
                                   ["-s", "install", "DESTDIR=\(dest.url.path)", "PREFIX=/usr/local",
                                    "BINDIR_SRC=\(Binaries.directory.path)"],
                                   currentDirectory: TestData.repoRoot)
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        func mode(_ rel: String) -> Int? {
            (try? FileManager.default.attributesOfItem(atPath: dest.url.path + rel))?[.posixPermissions] as? Int
        }
        #expect(mode("/usr/local/bin/hotcold-mqtt") == 0o755)
        #expect(mode("/usr/local/lib/systemd/system/hotcold-mqtt.service") == 0o644)
        #expect(mode("/usr/local/etc/hotcold/hotcold-mqtt.toml") == 0o644)
        #expect(mode("/usr/local/etc/hotcold/hotcoldd.toml") == 0o644)
    }
}

import Foundation
import HotColdDaemonTesting
import HotColdProtocol
import HotColdTestSupport
import Testing

/// One version, reported the same everywhere a person or a package manager reads it: the
/// socket's greeting and every program's `--version` (from `ProtocolVersion.release`), the
/// Debian package (debian/changelog's first entry) and CHANGELOG.md's newest section.
@Suite(.offCooperativePool) struct ReleaseVersionTests {
    @Test func theProgramsThePackageAndTheChangelogSayTheSameVersion() throws {
        let release = ProtocolVersion.release
        let debian = try String(contentsOf: TestData.repo("debian/changelog"), encoding: .utf8)
        let first = try #require(debian.split(separator: "\n").first)
        #expect(first.hasPrefix("hotcold (\(release)) "), "debian/changelog starts \(first); the programs say \(release)")
        let changelog = try String(contentsOf: TestData.repo("CHANGELOG.md"), encoding: .utf8)
        let newest = try #require(changelog.split(separator: "\n").first { $0.hasPrefix("## ") })
        #expect(newest.hasPrefix("## \(release) "), "CHANGELOG.md's newest section is \(newest); the programs say \(release)")
        for program in ["hotcoldd", "hotcold", "hotcold-sync", "hotcold-mqtt", "hotcold-web"] {
            let r = try Subprocess.run(Binaries.url(program), ["--version"])
            #expect(r.stdout.contains(release), "\(program) --version: \(r.stdout)")
        }
    }
}

import Foundation
import Glibc
@testable import HotColdProtocol
import HotColdTestSupport
import HotColdDaemonTesting
import Testing
@testable import HotColdDaemon

/// What clients stage in the daemon is bounded: per user, in time, and against the disk —
/// on real files, and on a real small filesystem (tmpfs) for the free-space reserve.
@Suite(.offCooperativePool, .serialized) struct UploadStagingTests {
    static let executor = ThreadTaskExecutor(name: "staging-housekeeping")
    static let alice = ClientID(rawValue: 1), alice2 = ClientID(rawValue: 2), bob = ClientID(rawValue: 3)

    func staging(_ edit: (inout StagingLimits) -> Void = { _ in }, directory: String? = nil) throws -> (UploadStaging, TemporaryDirectory) {
        let dir = try TemporaryDirectory("hotcold-staging")
        var limits = StagingLimits()
        limits.freeSpaceReserve = 0
        edit(&limits)
        return (UploadStaging(directory: directory ?? dir.path("uploads"), limits: limits), dir)
    }

    func code(_ body: () throws -> Void) -> ErrorCode? {
        do { try body(); return nil } catch let e as ProtocolError { return e.code } catch { return .internal }
    }

    @Test func aUsersUploadsShareOneQuotaAcrossConnections() throws {
        let (s, dir) = try staging { $0.bytesPerUser = 10 << 20 }; defer { dir.remove() }
        _ = try s.begin(UploadRequest(purpose: .import, size: 6 << 20), client: Self.alice, user: "alice")
        // A second connection of the same user would pass 10 MiB in all: refused before a byte.
        var refusal: ProtocolError?
        do { _ = try s.begin(UploadRequest(purpose: .import, size: 6 << 20), client: Self.alice2, user: "alice") } catch { refusal = error }
        #expect(refusal?.code == .quota)
        #expect(refusal?.message.contains("staged_mib_per_user") == true)
        // Another user has a quota of their own.
        #expect(code { _ = try s.begin(UploadRequest(purpose: .import, size: 6 << 20), client: Self.bob, user: "bob") } == nil)
        // The first connection closing gives the room back.
        s.forget(Self.alice)
        #expect(code { _ = try s.begin(UploadRequest(purpose: .import, size: 6 << 20), client: Self.alice2, user: "alice") } == nil)
        #expect(s.stagedBytes(of: "alice") == 6 << 20)
    }

    @Test func anIdleUploadIsDroppedWithItsFile() throws {
        let (s, dir) = try staging { $0.idleSeconds = 60 }; defer { dir.remove() }
        let u = try s.begin(UploadRequest(purpose: .import, size: 10), client: Self.alice, user: "alice")
        _ = try s.append(ChunkRequest(upload: u.id, offset: 0, data: Data("hello".utf8)), client: Self.alice)
        #expect(s.stagedFiles.count == 1)
        // Not yet idle for a minute: kept.
        #expect(s.expire() == 0)
        #expect(s.expire(now: .now + .seconds(61)) == 1)
        #expect(s.stagedFiles.isEmpty)
        #expect(s.stagedBytes(of: "alice") == 0)
        #expect(code { _ = try s.append(ChunkRequest(upload: u.id, offset: 5, data: Data("world".utf8)), client: Self.alice) } == .notFound)
    }

    /// The daemon's housekeeping service expires what a silent client left behind.
    @Test func expiryRunsByItselfForAClientThatSendsNothing() async throws {
        let (s, dir) = try staging { $0.idleSeconds = 0.4 }; defer { dir.remove() }
        // On a thread of its own: the parallel tests around this one may hold the shared pool.
        let housekeeping = Task(executorPreference: Self.executor) { try await HousekeepingService(staging: s, databaseWatch: nil).run() }
        defer { housekeeping.cancel() }
        _ = try s.begin(UploadRequest(purpose: .import, size: 10), client: Self.alice, user: "alice")
        let export = try s.export(client: Self.bob, user: "bob") { write in try write(Data(repeating: 7, count: 1000)) }
        #expect(s.stagedBytes(of: "bob") == 1000)
        let deadline = ContinuousClock.now + .seconds(30)
        while !(s.stagedFiles.isEmpty && s.stagedBytes(of: "bob") == 0), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(s.stagedFiles.isEmpty && s.stagedBytes(of: "bob") == 0)
        #expect(code { _ = try s.read(DownloadRequest(id: export.id, offset: 0), client: Self.bob) } == .notFound)
        #expect(s.expiredCount == 2)
    }

    @Test func anExportIsReadBackFromAnUnlinkedFileNotHeldInMemory() throws {
        let (s, dir) = try staging(); defer { dir.remove() }
        let piece = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let e = try s.export(client: Self.alice, user: "alice") { write in
            for _ in 0..<10 { try write(piece) }
        }
        #expect(e.size == 1_000_000)
        // On disk (an open, deleted file), not as a name in the directory.
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        let targets = fds.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)") }
        #expect(targets.contains { $0.contains("/export-") && $0.hasSuffix("(deleted)") })
        var back = Data()
        var offset = 0
        while true {
            let c = try s.read(DownloadRequest(id: e.id, offset: offset), client: Self.alice)
            back.append(c.data)
            offset += c.data.count
            if c.eof { break }
        }
        #expect(back == (0..<10).reduce(Data()) { d, _ in d + piece })
        #expect(s.stagedBytes(of: "alice") == 0)
    }

    @Test func anExportPastTheQuotaStopsAndHoldsNothing() throws {
        let (s, dir) = try staging { $0.bytesPerUser = 1 << 20 }; defer { dir.remove() }
        var written = 0
        var refusal: ProtocolError?
        do {
            _ = try s.export(client: Self.alice, user: "alice") { write in
                for _ in 0..<100 { try write(Data(count: 64 << 10)); written += 64 << 10 }
            }
        } catch let e as ProtocolError { refusal = e }
        #expect(refusal?.code == .quota)
        #expect(written == 1 << 20)
        #expect(s.stagedBytes(of: "alice") == 0)
    }

    /// The reserve on a real 8 MiB tmpfs: an upload that would leave less than 4 MiB free is
    /// refused before it is written, and one admitted is cancelled when another program fills
    /// the disk under it; the disk never fills.
    @Test(.enabled(if: getuid() == 0)) func theFreeSpaceReserveHoldsOnASmallDisk() throws {
        let mount = try TemporaryDirectory("hotcold-tmpfs")
        defer { umount(mount.url.path); mount.remove() }
        let r = try Subprocess.run(URL(fileURLWithPath: "/bin/mount"), ["-t", "tmpfs", "-o", "size=8m", "tmpfs", mount.url.path])
        try #require(r.status == 0, "mount: \(r.stderr)")
        let (s, dir) = try staging({ $0.freeSpaceReserve = 4 << 20 }, directory: mount.path("uploads")); defer { dir.remove() }
        var refusal: ProtocolError?
        do { _ = try s.begin(UploadRequest(purpose: .import, size: 5 << 20), client: Self.alice, user: "alice") } catch { refusal = error }
        #expect(refusal?.code == .quota)
        #expect(refusal?.message.contains("free_space_reserve_mib") == true)
        let u = try s.begin(UploadRequest(purpose: .import, size: 3 << 20), client: Self.alice, user: "alice")
        _ = try s.append(ChunkRequest(upload: u.id, offset: 0, data: Data(count: 32 << 10)), client: Self.alice)
        // Another program takes 4.5 MiB: the next chunk would eat into the reserve.
        try Data(count: 9 << 19).write(to: URL(fileURLWithPath: mount.path("other")))
        refusal = nil
        do { _ = try s.append(ChunkRequest(upload: u.id, offset: 32 << 10, data: Data(count: 32 << 10)), client: Self.alice) } catch { refusal = error }
        #expect(refusal?.code == .quota)
        #expect(s.stagedFiles.isEmpty)
        // An export is held to the same reserve: refused before its first byte is written.
        let free = freeBytes(at: mount.url.path)
        refusal = nil
        do {
            _ = try s.export(client: Self.bob, user: "bob") { write in for _ in 0..<100 { try write(Data(count: 64 << 10)) } }
        } catch let e as ProtocolError { refusal = e }
        #expect(refusal?.code == .quota)
        // Nothing written: the disk has no less free than before (it may have more, once the
        // cancelled upload's file, already unlinked, has its last descriptor closed).
        let before = try #require(free), after = try #require(freeBytes(at: mount.url.path))
        #expect(after >= before, "free \(before) bytes before the export, \(after) after")
        #expect(s.stagedFiles.isEmpty && s.stagedBytes(of: "bob") == 0)
    }
}

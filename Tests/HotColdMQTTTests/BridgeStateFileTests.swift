import Foundation
@testable import HotColdMQTT
import HotColdTestSupport
import HotColdDaemonTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The bridge's other state files — the acknowledged sequence number and the friends' inbox —
/// as untrusted as `regions.json`: a link planted at a file or its temporary is never written
/// through, a FIFO is refused at once rather than waited on, and a state directory others may
/// write is refused with a sentence.
@Suite(.offCooperativePool) struct BridgeStateFileTests {
    /// A root-owned file a link is planted to: it must keep its bytes.
    static func victim(_ dir: TemporaryDirectory) throws -> String {
        let path = dir.path("victim")
        try Data("precious\n".utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func contents(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }

    @Test func theAcknowledgedNumberIsNeverWrittenThroughALinkNorReadFromOne() throws {
        let dir = try TemporaryDirectory("ack-links"); defer { dir.remove() }
        let victim = try Self.victim(dir)
        let store = AckStore(directory: dir.path("state"))
        try store.createDirectory()
        #expect(symlink(victim, store.path + ".tmp") == 0)
        try store.save(42)
        #expect(Self.contents(victim) == "precious\n")
        #expect(try store.load() == 42)

        // The number itself a link: refused, naming why (before: read through it).
        #expect(unlink(store.path) == 0 && symlink(victim, store.path) == 0)
        #expect(throws: AckStore.Failure.self) { try store.load() }
        do { _ = try store.load() } catch { #expect(error.description.contains("symbolic link"), "\(error)") }
        // Saving replaces the link, never writes through it.
        try store.save(43)
        #expect(Self.contents(victim) == "precious\n")
        #expect(try store.load() == 43)
    }

    @Test func aFIFOIsRefusedAtOnceNotWaitedOn() throws {
        let dir = try TemporaryDirectory("ack-fifo"); defer { dir.remove() }
        let store = AckStore(directory: dir.path("state"))
        try store.createDirectory()
        #expect(mkfifo(store.path, 0o600) == 0)
        let started = ContinuousClock.now
        do { _ = try store.load(); Issue.record("a FIFO was read") } catch {
            #expect(error.description.contains("not a regular file"), "\(error)")
        }
        let journal = InboxJournal(directory: dir.path("state"))
        #expect(mkfifo(journal.path, 0o600) == 0)
        do { try journal.forEachRecord { _, _ in }; Issue.record("a FIFO was read") } catch {
            #expect(error.description.contains("FIFO") || error.description.contains("not a regular file"), "\(error)")
        }
        #expect(throws: AckStore.Failure.self) { try journal.append(topic: "t", payload: [1]) }
        #expect(ContinuousClock.now - started < .seconds(2))
    }

    @Test func theInboxNeverWritesThroughALink() throws {
        let dir = try TemporaryDirectory("inbox-links"); defer { dir.remove() }
        let victim = try Self.victim(dir)
        let state = dir.path("state")
        try AckStore(directory: state).createDirectory()
        let journal = InboxJournal(directory: state)
        // The journal itself a link: nothing appended there, nothing truncated.
        #expect(symlink(victim, journal.path) == 0)
        #expect(throws: AckStore.Failure.self) { try journal.append(topic: "hotcold/jane/ute/feed", payload: [1, 2, 3]) }
        #expect(throws: AckStore.Failure.self) { try journal.clear() }
        #expect(Self.contents(victim) == "precious\n")
        // A link planted at the compaction's temporary: the compaction makes a file of its own.
        #expect(unlink(journal.path) == 0)
        let first = try journal.append(topic: "a", payload: [1])
        try journal.append(topic: "b", payload: [2])
        #expect(symlink(victim, journal.path + ".compact") == 0)
        try journal.dropPrefix(first)
        #expect(Self.contents(victim) == "precious\n")
        var topics: [String] = []
        try journal.forEachRecord { record, _ in if let r = record { topics.append(r.topic) } }
        #expect(topics == ["b"])
    }

    @Test func aStateDirectoryOthersMayWriteIsRefused() throws {
        let dir = try TemporaryDirectory("state-mode"); defer { dir.remove() }
        let state = dir.path("state")
        #expect(mkdir(state, 0o755) == 0 && chmod(state, 0o777) == 0)
        do { try AckStore(directory: state).createDirectory(); Issue.record("a world-writable directory was taken") } catch {
            #expect(error.description.contains("writable by others"), "\(error)")
        }
        #expect(chmod(state, 0o750) == 0)
        try AckStore(directory: state).createDirectory()
    }
}

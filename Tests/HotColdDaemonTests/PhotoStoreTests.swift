import Foundation
import Glibc
@testable import HotColdDaemon
@testable import HotColdProtocol
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// The files submissions' photos wait in, and the body made from one: bounded on disk with a
/// clear refusal, never through a link, and every slice of the body the very bytes the body
/// had when the photo was inline.
@Suite(.offCooperativePool) struct PhotoStoreTests {
    /// A staged file of `bytes` bytes, its path and an open descriptor (kept open for the test).
    static func staged(_ dir: TemporaryDirectory, _ name: String, bytes: Int) throws -> (path: String, fd: Int32) {
        let path = dir.path(name)
        try Data(repeating: 0xAB, count: bytes).write(to: URL(fileURLWithPath: path))
        return (path, open(path, O_RDONLY | O_CLOEXEC))
    }

    static func adopt(_ store: PhotoStore, _ file: (path: String, fd: Int32), bytes: Int) throws(ProtocolError) -> String {
        try store.adopt(staged: file.path, fd: file.fd, bytes: bytes, command: "submit")
    }

    @Test("photos past the store's bound are refused with a sentence, and nothing kept is touched")
    func boundedOnDisk() throws {
        let dir = try TemporaryDirectory("photo-store"); defer { dir.remove() }
        let store = PhotoStore(directory: dir.path("photos"), limit: 3 << 20, keep: [])
        #expect(store.problem == nil)
        let one = try Self.adopt(store, try Self.staged(dir, "a", bytes: 2 << 20), bytes: 2 << 20)
        #expect(store.usedBytes == 2 << 20)
        // Asked before the bytes are sent, and again when kept.
        var refusal: ProtocolError?
        do { try store.admit(2 << 20, command: "upload") } catch { refusal = error }
        #expect(refusal?.code == .quota)
        #expect(refusal?.message == "upload: photos waiting for the web API take 2.0 MiB of the 3.0 MiB kept for them; this photo of 2.0 MiB would pass it (hotcold-sync delivers them and frees the room)")
        refusal = nil
        let b = try Self.staged(dir, "b", bytes: 2 << 20)
        do { _ = try Self.adopt(store, b, bytes: 2 << 20) } catch { refusal = error }
        #expect(refusal?.code == .quota)
        #expect(try store.read(one, bytes: 2 << 20, offset: 0, count: 4) == Data([0xAB, 0xAB, 0xAB, 0xAB]), "the kept one is whole")
        // Delivered: its room is free again.
        store.remove(one)
        #expect(store.usedBytes == 0)
        let c = try Self.staged(dir, "c", bytes: 2 << 20)
        #expect(throws: Never.self) { _ = try Self.adopt(store, c, bytes: 2 << 20) }
    }

    @Test("a photo file made into a link, or changed, is not read; a directory others may write is not used")
    func untrustedFilesAreRefused() throws {
        let dir = try TemporaryDirectory("photo-store"); defer { dir.remove() }
        let store = PhotoStore(directory: dir.path("photos"), limit: 1 << 20, keep: [])
        let name = try Self.adopt(store, try Self.staged(dir, "a", bytes: 1000), bytes: 1000)
        let path = dir.path("photos/" + name)
        #expect(store.holds(name, bytes: 1000) && !store.holds(name, bytes: 999))
        // Replaced by a link to another file: never followed.
        try Data("secret".utf8).write(to: URL(fileURLWithPath: dir.path("secret")))
        unlink(path)
        #expect(symlink(dir.path("secret"), path) == 0)
        #expect(throws: ProtocolError.self) { _ = try store.read(name, bytes: 6, offset: 0, count: 6) }
        #expect(!store.holds(name, bytes: 6))
        // Not one of the store's names: never joined to the directory.
        #expect(throws: ProtocolError.self) { _ = try store.read("../secret", bytes: 6, offset: 0, count: 6) }
        // A file put at the staged name in place of the one the daemon wrote is not taken.
        let staged = try Self.staged(dir, "b", bytes: 1000)
        unlink(staged.path)
        try Data(repeating: 0xCD, count: 1000).write(to: URL(fileURLWithPath: staged.path))
        var swapped: ProtocolError?
        do { _ = try Self.adopt(store, staged, bytes: 1000) } catch { swapped = error }
        #expect(swapped?.message.contains("replaced before it could be kept") == true, "\(swapped?.message ?? "taken")")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: dir.path("photos"))) ?? []).count == 1, "only the first photo")
        // A directory anyone can write to: refused, said once, nothing kept there.
        let open = dir.path("open")
        #expect(mkdir(open, 0o777) == 0 && chmod(open, 0o1777) == 0)
        let shared = PhotoStore(directory: open, limit: 1 << 20, keep: [])
        #expect(shared.problem?.contains("writable by others") == true, "\(shared.problem ?? "no problem")")
        #expect(throws: ProtocolError.self) { try shared.admit(10, command: "upload") }
    }

    @Test("every slice of a body made with the photo apart is the same bytes as the body with the photo inline")
    func slicesAreTheInlineBody() throws {
        var rng = SeededRandom(seed: 99)
        for size in [1, 2, 3, 4, 5, 6, 7, 100, 1000, 65_536, 196_609, 300_001] {
            var photo = Data(count: size)
            for i in 0..<size { photo[i] = UInt8(truncatingIfNeeded: rng.next()) }
            let head = Data(#"{"name":"X","photo":{"content_type":"image/jpeg","data_base64":""#.utf8)
            let tail = Data(#"","filename":"x.jpg"},"seen_at":"2026-01-01T00:00:00.000Z"}"#.utf8)
            let inline = head + Data(photo.base64EncodedString().utf8) + tail
            let body = PhotoBody(payload: head + tail, at: head.count, photoBytes: size)
            #expect(body.count == inline.count, "\(size)")
            let read: (Int, Int) throws -> Data = { offset, count in
                #expect(offset % 3 == 0 && offset + count <= size)
                return photo.subdata(in: offset ..< offset + count)
            }
            // Whole, in the daemon's slices, and in odd pieces from odd places.
            #expect(try body.slice(from: 0, count: body.count, read: read) == inline, "\(size)")
            for step in [1, 2, 5, 7, 64, 4096, SyncLimits.payloadSliceBytes] where inline.count / step < 3000 {
                var assembled = Data()
                while assembled.count < body.count {
                    assembled += try body.slice(from: assembled.count, count: step, read: read)
                }
                #expect(assembled == inline, "\(size) in slices of \(step)")
            }
            for _ in 0..<50 {
                let a = Int(rng.next() % UInt64(inline.count)), n = Int(rng.next() % 5000)
                #expect(try body.slice(from: a, count: n, read: read) == inline.subdata(in: a ..< min(inline.count, a + n)), "\(size) at \(a)+\(n)")
            }
            #expect(try body.slice(from: body.count, count: 10, read: read).isEmpty)
        }
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Feed items and likes the bridge took from the broker but has not yet handed to the daemon,
/// on disk (`friends-inbox` in the state directory), so a crash loses none of them.
///
/// libmosquitto acknowledges a QoS 1 message (PUBACK) as it delivers it, so after that the
/// broker will not send it again: from then on it is the bridge's to keep. Each one is appended
/// as it arrives (one line: the topic, a tab, the payload in base64; fsynced). The inbox hands
/// them to the daemon in the order they came, so what has reached the daemon is always the
/// file's beginning: `dropPrefix` cuts it off (compaction as the inbox drains) and `clear`
/// empties the file once everything has. The inbox's byte budget bounds what is in it.
///
/// The file is the bridge's own and treated as untrusted: every open refuses a link
/// (`O_NOFOLLOW`), never blocks (a FIFO planted there is refused, not waited on) and checks it
/// is a regular file of the bridge's user that others cannot write; the compaction's
/// temporary is created afresh (`O_EXCL`).
///
/// At start the bridge reads what is left record by record (`forEachRecord`, a bounded buffer:
/// never the whole file in memory) and passes it on again; the daemon stores a feed item once
/// and counts a like once, so one handed over just before a crash costs nothing twice.
///
/// ```swift
/// let j = InboxJournal(directory: "/var/lib/hotcold-mqtt")
/// let n = try j.append(topic: "hotcold/jane/ute/feed", payload: bytes)   // bytes written
/// try j.forEachRecord { topic, payload, length in … }
/// try j.dropPrefix(n)                                                     // the first record reached the daemon
/// try j.clear()
/// ```
final class InboxJournal: @unchecked Sendable {
    let path: String
    /// The longest line read back: a topic (MQTT allows 64 KiB) and a payload the bridge
    /// takes (8 KiB, in base64). A longer one is no record of this bridge's and is skipped.
    static let maximumLineBytes = 96 * 1024
    /// The buffer the file is read and copied through.
    static let chunkBytes = 64 * 1024

    init(directory: String) { path = directory + "/friends-inbox" }

    /// The line `append` would write for this message (its length is what the record costs).
    static func line(topic: String, payload: [UInt8]) -> [UInt8] {
        Array((topic + "\t" + Data(payload).base64EncodedString() + "\n").utf8)
    }

    /// Appends one record, fsynced; returns its length in bytes.
    @discardableResult
    func append(topic: String, payload: [UInt8]) throws(AckStore.Failure) -> Int {
        let line = Self.line(topic: topic, payload: payload)
        let fd = try openOwn(path, O_WRONLY | O_CREAT | O_APPEND)
        defer { close(fd) }
        try writeAll(fd, line[...])
        guard fsync(fd) == 0 else { throw fail("fsync \(path)") }
        return line.count
    }

    /// The file's size now (0 when there is none).
    func size() -> Int {
        var st = stat()
        return stat(path, &st) == 0 ? Int(st.st_size) : 0
    }

    /// Calls `body` with each record in order — its topic, payload and the bytes it takes in
    /// the file — reading through a bounded buffer. A torn last line (a crash mid-write), a
    /// line that is not a record and one over `maximumLineBytes` are passed as `nil` with
    /// their length, so the caller can count the bytes they hold.
    func forEachRecord(_ body: (_ record: (topic: String, payload: [UInt8])?, _ length: Int) -> Void) throws(AckStore.Failure) {
        guard let fd = try openOwn(path, O_RDONLY, missingIsNil: true) else { return }
        defer { close(fd) }
        var pending: [UInt8] = []           // the start of the current line (at most maximumLineBytes)
        var pendingLength = 0               // its real length, when it overflowed
        var chunk = [UInt8](repeating: 0, count: Self.chunkBytes)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw fail("read \(path)")
            }
            if n == 0 { break }
            var start = 0
            for i in 0..<n where chunk[i] == 0x0A {
                let piece = chunk[start..<i]
                let length = pendingLength + piece.count + 1
                if pendingLength + piece.count <= Self.maximumLineBytes {
                    pending += piece
                    body(Self.record(pending), length)
                } else {
                    body(nil, length)
                }
                pending.removeAll(keepingCapacity: true)
                pendingLength = 0
                start = i + 1
            }
            let rest = chunk[start..<n]
            if pendingLength + rest.count <= Self.maximumLineBytes { pending += rest } else { pending.removeAll() }
            pendingLength += rest.count
        }
        if pendingLength > 0 { body(nil, pendingLength) }
    }

    private static func record(_ line: [UInt8]) -> (topic: String, payload: [UInt8])? {
        guard let tab = line.firstIndex(of: 0x09),
              let bytes = Data(base64Encoded: Data(line[(tab + 1)...])) else { return nil }
        return (String(decoding: line[..<tab], as: UTF8.self), Array(bytes))
    }

    /// Cuts off the first `bytes` of the file (records that reached the daemon): the rest is
    /// copied through a bounded buffer to a new file, fsynced, and renamed over the old, so a
    /// crash leaves either the old file or the new one, never half of either.
    func dropPrefix(_ bytes: Int) throws(AckStore.Failure) {
        guard bytes > 0 else { return }
        let src = try openOwn(path, O_RDONLY)
        defer { close(src) }
        guard lseek(src, off_t(bytes), SEEK_SET) >= 0 else { throw fail("seek \(path)") }
        let temporary = path + ".compact"
        // A stale temporary, or a link planted there, goes first (unlink removes the link itself).
        guard unlink(temporary) == 0 || errno == ENOENT else { throw fail("remove \(temporary)") }
        let dst = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard dst >= 0 else { throw fail("create \(temporary)") }
        var chunk = [UInt8](repeating: 0, count: Self.chunkBytes)
        do throws(AckStore.Failure) {
            while true {
                let n = chunk.withUnsafeMutableBytes { read(src, $0.baseAddress, $0.count) }
                if n < 0 {
                    if errno == EINTR { continue }
                    throw fail("read \(path)")
                }
                if n == 0 { break }
                try writeAll(dst, chunk[0..<n])
            }
            guard fsync(dst) == 0 else { throw fail("fsync \(temporary)") }
        } catch {
            close(dst)
            unlink(temporary)
            throw error
        }
        close(dst)
        guard rename(temporary, path) == 0 else { throw fail("rename \(temporary)") }
    }

    /// Empties the file: all of it reached the daemon.
    func clear() throws(AckStore.Failure) {
        guard let fd = try openOwn(path, O_WRONLY, missingIsNil: true) else { return }
        defer { close(fd) }
        guard ftruncate(fd, 0) == 0 else { throw fail("truncate \(path)") }
    }

    /// Opens the journal (or a file beside it) as the bridge's own: no link followed, never
    /// blocking, a regular file of this user (or root) that others cannot write. Nil for a
    /// missing file when `missingIsNil`.
    private func openOwn(_ file: String, _ flags: Int32, missingIsNil: Bool) throws(AckStore.Failure) -> Int32? {
        let fd = open(file, flags | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            if missingIsNil, errno == ENOENT { return nil }
            if errno == ELOOP { throw AckStore.Failure(description: "\(file): a symbolic link, not followed") }
            if errno == ENXIO { throw AckStore.Failure(description: "\(file): a socket or FIFO, not a regular file") }
            throw fail("open \(file)")
        }
        var st = stat()
        guard fstat(fd, &st) == 0 else { let e = fail("inspect \(file)"); close(fd); throw e }
        let problem: String? = if st.st_mode & S_IFMT != S_IFREG {
            "not a regular file"
        } else if st.st_uid != geteuid(), st.st_uid != 0 {
            "owned by uid \(st.st_uid), expected uid \(geteuid())"
        } else if st.st_mode & 0o022 != 0 {
            "writable by others (mode \(String(st.st_mode & 0o7777, radix: 8)))"
        } else {
            nil
        }
        if let problem {
            close(fd)
            throw AckStore.Failure(description: "\(file): \(problem)")
        }
        return fd
    }

    private func openOwn(_ file: String, _ flags: Int32) throws(AckStore.Failure) -> Int32 {
        // Never nil: a missing file is an error here.
        try openOwn(file, flags, missingIsNil: false)!
    }

    private func writeAll(_ fd: Int32, _ bytes: ArraySlice<UInt8>) throws(AckStore.Failure) {
        var written = bytes.startIndex
        while written < bytes.endIndex {
            let n = bytes[written...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw fail("write \(path)")
            }
            written += n
        }
    }

    private func fail(_ what: String) -> AckStore.Failure {
        AckStore.Failure(description: "\(what): \(String(cString: strerror(errno)))")
    }
}

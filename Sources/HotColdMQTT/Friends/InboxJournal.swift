import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Feed items and likes the bridge took from the broker but has not yet handed to the daemon,
/// on disk (`friends-inbox` in the state directory), so a crash loses none of them.
///
/// libmosquitto acknowledges a QoS 1 message (PUBACK) as it delivers it, so after that the
/// broker will not send it again: from then on it is the bridge's to keep. Each one is appended
/// as it arrives (one line: the topic, a tab, the payload in base64; fsynced) and the file is
/// emptied once everything in it has reached the daemon. At start the bridge reads what is left
/// and passes it on again; the daemon stores a feed item once and counts a like once, so one
/// handed over just before a crash costs nothing twice.
///
/// ```swift
/// let j = InboxJournal(directory: "/var/lib/hotcold-mqtt")
/// try j.append(topic: "hotcold/jane/ute/feed", payload: bytes)
/// try j.pending()    // [("hotcold/jane/ute/feed", bytes)]
/// try j.clear()
/// ```
public final class InboxJournal: @unchecked Sendable {
    public let path: String
    /// A journal larger than this is not read back whole (10,000 items of 8 KiB, base64).
    public static let maximumBytes = 120 << 20

    public init(directory: String) { path = directory + "/friends-inbox" }

    public func append(topic: String, payload: [UInt8]) throws(AckStore.Failure) {
        let line = Array((topic + "\t" + Data(payload).base64EncodedString() + "\n").utf8)
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw fail("open \(path)") }
        defer { close(fd) }
        var written = 0
        while written < line.count {
            let n = line[written...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw fail("write \(path)")
            }
            written += n
        }
        guard fsync(fd) == 0 else { throw fail("fsync \(path)") }
    }

    /// Everything not yet handed over (a torn last line, from a crash mid-write, is skipped).
    public func pending() throws(AckStore.Failure) -> [(topic: String, payload: [UInt8])] {
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        guard let data = FileManager.default.contents(atPath: path) else { throw fail("read \(path)") }
        guard data.count <= Self.maximumBytes else {
            throw AckStore.Failure(description: "\(path): \(data.count) bytes, more than a full inbox can hold")
        }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { line in
            let parts = line.split(separator: "\t", maxSplits: 1)
            guard parts.count == 2, let bytes = Data(base64Encoded: String(parts[1])) else { return nil }
            return (String(parts[0]), Array(bytes))
        }
    }

    /// Empties the file: all of it reached the daemon.
    public func clear() throws(AckStore.Failure) {
        guard truncate(path, 0) == 0 || errno == ENOENT else { throw fail("truncate \(path)") }
    }

    private func fail(_ what: String) -> AckStore.Failure {
        AckStore.Failure(description: "\(what): \(String(cString: strerror(errno)))")
    }
}

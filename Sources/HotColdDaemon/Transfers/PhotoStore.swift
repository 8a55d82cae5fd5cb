import Foundation
import Glibc
import HotColdProtocol
import HotColdUnix
import Synchronization

/// The photos of submissions waiting for the web API, one file each in a private directory
/// beside the database, named by the daemon (`photo-` and 32 random hex digits: a sender's
/// file name is never a path here, and the name never goes on the wire — `hotcold-sync` asks
/// for an outbox item's body by the item's id).
///
/// A photo arrives as a staged upload (already on disk) and is linked in under its new name,
/// so its bytes are never read into memory to be kept; `hotcold-sync` reads them back a slice
/// at a time (``read(_:offset:count:)``). A file is created only where nothing is (`link`
/// fails on an existing name, link or not), and opened for reading without following links,
/// as a regular file of the daemon's own user. All the files together are bounded
/// (``limit``): a photo that would pass it is refused with a `quota` error, and nothing
/// already kept is touched. A file whose item was delivered or refused for good is removed
/// then; one no waiting item names (a crash between the file and the commit) is removed at
/// start (``init(directory:limit:keep:)``).
final class PhotoStore: Sendable {
    let directory: String
    /// Bytes all kept photos may take together.
    let limit: Int
    /// Why the directory cannot be used (not private, cannot be created), or nil.
    let problem: String?
    private let used = Mutex(0)

    /// Opens (creating, mode 0700) `directory` and removes every photo file in it but `keep`
    /// (the files waiting items name; nil when that is not known: nothing is removed). The
    /// names removed are in ``removed``.
    init(directory: String, limit: Int, keep: Set<String>?) {
        self.directory = directory
        self.limit = limit
        var problem: String?
        do { try PrivateDirectory.ensure(directory, mode: 0o700) } catch {
            problem = "the photo directory \(error.description)"
        }
        self.problem = problem
        var total = 0
        var removed: [String] = []
        if problem == nil {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] where Self.isName(name) {
                if keep?.contains(name) ?? true {
                    total += Self.size(directory + "/" + name) ?? 0
                } else if unlink(directory + "/" + name) == 0 {
                    removed.append(name)
                }
            }
        }
        self.removed = removed
        used.withLock { $0 = total }
    }

    /// Orphaned photo files removed at start.
    let removed: [String]

    /// Bytes the kept photos take now.
    var usedBytes: Int { used.withLock { $0 } }

    /// Whether `name` is one of this store's names (and so safe to join to the directory).
    static func isName(_ name: String) -> Bool {
        name.hasPrefix("photo-") && name.utf8.count == 38 && name.utf8.dropFirst(6).allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// Refused before a photo of `bytes` is staged when it could not be kept (checked again
    /// when it is kept, which is what counts).
    func admit(_ bytes: Int, command: String) throws(ProtocolError) {
        if let problem { throw ProtocolError(.internal, command: command, "cannot keep photos: \(problem)") }
        let now = usedBytes
        if now + bytes > limit { throw full(now: now, adding: bytes, command: command) }
    }

    /// Takes the staged file at `staged`, open as `fd` (complete, synced, `bytes` long), as a
    /// kept photo; returns its name. The staged name is left for its owner to remove. What is
    /// linked must be the very file `fd` has open: a file put at the staged name in its place
    /// is refused.
    func adopt(staged: String, fd: Int32, bytes: Int, command: String) throws(ProtocolError) -> String {
        if let problem { throw ProtocolError(.internal, command: command, "cannot keep photos: \(problem)") }
        let admitted: ProtocolError? = used.withLock { u in
            if u + bytes > limit { return full(now: u, adding: bytes, command: command) }
            u += bytes
            return nil
        }
        if let admitted { throw admitted }
        for _ in 0..<4 {
            let name = Self.newName()
            let path = directory + "/" + name
            if link(staged, path) == 0 {
                var linked = stat(), open = stat()
                guard lstat(path, &linked) == 0, fstat(fd, &open) == 0, linked.st_dev == open.st_dev, linked.st_ino == open.st_ino,
                      linked.st_mode & S_IFMT == S_IFREG, Int(linked.st_size) == bytes else {
                    unlink(path)
                    used.withLock { $0 -= bytes }
                    throw ProtocolError(.internal, command: command, "the staged photo was replaced before it could be kept; nothing was queued")
                }
                do { try TrustedFile.syncDirectory(of: path) } catch {
                    unlink(path)
                    used.withLock { $0 -= bytes }
                    throw ProtocolError(.internal, command: command, "cannot keep the photo: \(error.description)")
                }
                return name
            }
            let code = errno
            if code == EEXIST { continue }
            if code == EXDEV, let name = copy(fd, bytes: bytes) { return name }
            used.withLock { $0 -= bytes }
            throw ProtocolError(.internal, command: command,
                                "cannot keep the photo in \(directory): \(String(cString: strerror(code)))")
        }
        used.withLock { $0 -= bytes }
        throw ProtocolError(.internal, command: command, "cannot find a free name in \(directory)")
    }

    /// The staging directory on another filesystem: the bytes are copied, a block at a time,
    /// into a file created where nothing was (charged already by the caller).
    private func copy(_ from: Int32, bytes: Int) -> String? {
        let name = Self.newName()
        let path = directory + "/" + name
        let to = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, 0o600)
        guard to >= 0 else { return nil }
        var block = [UInt8](repeating: 0, count: 64 << 10)
        var done = 0
        var ok = true
        while ok && done < bytes {
            let n = block.withUnsafeMutableBytes { pread(from, $0.baseAddress!, $0.count, off_t(done)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { ok = false; break }
            var written = 0
            while written < n {
                let w = block.withUnsafeBytes { Glibc.write(to, $0.baseAddress! + written, n - written) }
                if w < 0 && errno == EINTR { continue }
                guard w > 0 else { ok = false; break }
                written += w
            }
            done += n
        }
        ok = ok && done == bytes && fsync(to) == 0
        close(to)
        guard ok, (try? TrustedFile.syncDirectory(of: path)) != nil else {
            unlink(path)
            return nil
        }
        return name
    }

    /// Up to `count` bytes of photo `name` from `offset`; the file must be a regular file of
    /// this user, exactly `bytes` long.
    func read(_ name: String, bytes: Int, offset: Int, count: Int) throws(ProtocolError) -> Data {
        guard Self.isName(name) else { throw ProtocolError(.internal, command: "sync", "not a photo name") }
        let path = directory + "/" + name
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { throw lost(name, String(cString: strerror(errno))) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG, st.st_uid == geteuid(), Int(st.st_size) == bytes else {
            throw lost(name, "not the file that was kept (\(Int(st.st_size)) bytes, \(bytes) expected)")
        }
        let want = max(0, min(count, bytes - offset))
        var out = Data(count: want)
        let got = out.withUnsafeMutableBytes { (p: UnsafeMutableRawBufferPointer) -> Int in
            var done = 0
            while done < want {
                let n = pread(fd, p.baseAddress! + done, want - done, off_t(offset + done))
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { break }
                done += n
            }
            return done
        }
        guard got == want else { throw lost(name, "it ends early") }
        return out
    }

    /// Whether photo `name` is there, `bytes` long (checked before its item is offered for delivery).
    func holds(_ name: String, bytes: Int) -> Bool {
        Self.isName(name) && Self.size(directory + "/" + name) == bytes
    }

    /// Removes photo `name` (its item is delivered, refused, or was never queued).
    func remove(_ name: String) {
        guard Self.isName(name) else { return }
        let path = directory + "/" + name
        let size = Self.size(path)
        if unlink(path) == 0, let size { used.withLock { $0 = max(0, $0 - size) } }
    }

    static func size(_ path: String) -> Int? {
        var st = stat()
        guard lstat(path, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int(st.st_size)
    }

    static func newName() -> String {
        var g = SystemRandomNumberGenerator()
        let hex = (0..<2).map { _ in String(g.next() as UInt64, radix: 16) }.map { String(repeating: "0", count: 16 - $0.count) + $0 }
        return "photo-" + hex.joined()
    }

    private func full(now: Int, adding bytes: Int, command: String) -> ProtocolError {
        ProtocolError(.quota, command: command,
            "photos waiting for the web API take \(UploadStaging.mib(now)) of the \(UploadStaging.mib(limit)) kept for them; this photo of \(UploadStaging.mib(bytes)) would pass it (hotcold-sync delivers them and frees the room)")
    }

    private func lost(_ name: String, _ why: String) -> ProtocolError {
        ProtocolError(.internal, command: "sync", "a queued photo is unusable: \(why)")
    }
}

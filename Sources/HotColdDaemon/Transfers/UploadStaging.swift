import Foundation
import HotColdProtocol
import HotColdUnix
import Synchronization

/// Files clients are sending (`upload`/`chunk`) and exports they are fetching (`download`),
/// per connection, bounded per Unix user, in time and against the disk.
///
/// An upload is staged in a private temporary file (mode 0600, unlinked when consumed, when
/// the connection closes, when idle too long, or at start-up by the directory's cleanup),
/// never in the database: a client that disconnects half-way leaves nothing behind. An export
/// is written to an unlinked file and read back by `download` a chunk at a time, so neither
/// sits in memory. Each connection holds at most one upload and one download at a time; all
/// of a user's staged bytes count against `limits.bytesPerUser`; anything not touched for
/// `limits.idleSeconds` is dropped; and nothing is staged that would leave less than
/// `limits.freeSpaceReserve` free on the directory's filesystem, so the database beside it
/// can still write. Every refusal is a `quota` error that says which bound and by how much.
final class UploadStaging: Sendable {
    struct Upload {
        public var id: String
        var user: String
        var purpose: UploadRequest.Purpose
        var size: Int
        var received: Int
        var path: String
        public var handle: FileHandle
        var touched: ContinuousClock.Instant
    }

    struct Download {
        public var id: String
        var user: String
        var file: StagedDownload
        var touched: ContinuousClock.Instant
    }

    private struct State {
        var uploads: [ClientID: Upload] = [:]
        var downloads: [ClientID: Download] = [:]
        /// Exports being written now: their user and bytes so far.
        var exporting: [ClientID: (user: String, bytes: Int)] = [:]
        var next = 0
        var expired = 0

        /// Bytes `user` holds staged: uploads at their announced size, exports at theirs.
        func used(by user: String) -> Int {
            uploads.values.reduce(0) { $0 + ($1.user == user ? $1.size : 0) }
                + downloads.values.reduce(0) { $0 + ($1.user == user ? $1.file.size : 0) }
                + exporting.values.reduce(0) { $0 + ($1.user == user ? $1.bytes : 0) }
        }

        /// Bytes announced by uploads and not yet received: disk they will still take.
        var promised: Int { uploads.values.reduce(0) { $0 + $1.size - $1.received } }
    }

    private let state = Mutex(State())
    let directory: String
    let limits: StagingLimits
    /// Where a photo upload goes when a submission keeps it (nil: no database, no submissions).
    let photos: PhotoStore?

    /// Why nothing can be staged (the directory is not private, or cannot be made), or nil.
    let problem: String?

    /// `directory` is created (0700) if needed; stale `upload-*` files in it are removed. A
    /// directory others may write in is not used: uploads and exports are refused, saying why.
    init(directory: String, limits: StagingLimits = StagingLimits(), photos: PhotoStore? = nil) {
        self.directory = directory
        self.limits = limits
        self.photos = photos
        do { try PrivateDirectory.ensure(directory, mode: 0o700); problem = nil } catch {
            problem = "the staging directory \(error.description)"
        }
        for f in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] where f.hasPrefix("upload-") || f.hasPrefix("export-") {
            unlink(directory + "/" + f)
        }
    }

    /// How often ``expire(now:)`` should run (`HousekeepingService` runs it: an idle client
    /// sends nothing that could trigger it): a quarter of the idle limit, between 0.1 and 15 s.
    var sweepInterval: Duration { .milliseconds(Int64(max(0.1, min(limits.idleSeconds / 4, 15)) * 1000)) }

    /// Starts an upload for `client`, replacing (and deleting) any unfinished one. Refused
    /// when its announced size would take `user` past their staging quota or leave the disk
    /// with less than the reserve.
    func begin(_ r: UploadRequest, client: ClientID, user: String) throws(ProtocolError) -> UploadReply {
        if let old = state.withLock({ s in defer { s.uploads[client] = nil }; return s.uploads[client] }) { Self.discard(old) }
        if let problem { throw ProtocolError(.internal, command: "upload", "cannot stage uploads: \(problem)") }
        // A photo the photo directory has no room for is refused before its bytes are sent.
        if r.purpose == .photo, let photos { try photos.admit(r.size, command: "upload") }
        let free = freeBytes(at: directory)
        let admitted: Result<(String, String), ProtocolError> = state.withLock { s in
            let used = s.used(by: user)
            if used + r.size > limits.bytesPerUser {
                return .failure(ProtocolError(.quota, command: "upload", field: "size",
                    "staged_mib_per_user: \(user) has \(Self.mib(used)) staged of \(Self.mib(limits.bytesPerUser)); this upload of \(Self.mib(r.size)) would pass it (finish or close other uploads and downloads first)"))
            }
            if let free, free - s.promised - r.size < limits.freeSpaceReserve {
                return .failure(Self.diskFull("upload", free: free - s.promised, reserve: limits.freeSpaceReserve))
            }
            s.next += 1
            return .success(("u\(s.next)", "\(directory)/upload-\(getpid())-\(s.next)"))
        }
        let (id, path) = try admitted.get()
        // Created where nothing is, never through a link someone left at the name; read back
        // by `keep` for the photo's first bytes.
        let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, 0o600)
        guard fd >= 0 else {
            throw ProtocolError(.internal, command: "upload", "cannot stage the upload in \(directory): \(String(cString: strerror(errno)))")
        }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        let up = Upload(id: id, user: user, purpose: r.purpose, size: r.size, received: 0, path: path,
                        handle: handle, touched: .now)
        if let raced = state.withLock({ s in defer { s.uploads[client] = up }; return s.uploads[client] }) { Self.discard(raced) }
        return UploadReply(id: id, size: r.size, received: 0)
    }

    /// Appends a chunk; it must start where the last one ended and not pass the announced size.
    func append(_ c: ChunkRequest, client: ClientID) throws(ProtocolError) -> UploadReply {
        let free = freeBytes(at: directory)
        let result: Result<UploadReply, ProtocolError> = state.withLock { s in
            guard var u = s.uploads[client], u.id == c.upload else {
                return .failure(ProtocolError(.notFound, command: "chunk", field: "upload",
                    "no upload \"\(c.upload)\" on this connection (an upload idle for \(Int(limits.idleSeconds)) s is dropped)"))
            }
            guard c.offset == u.received else {
                return .failure(ProtocolError(.badField, command: "chunk", field: "offset", "expected \(u.received), got \(c.offset)"))
            }
            guard c.data.count <= u.size - u.received else {
                s.uploads[client] = nil
                Self.discard(u)
                return .failure(ProtocolError(.tooLarge, command: "chunk", field: "data",
                                              "passes the announced size \(u.size); the upload is cancelled"))
            }
            // Another program may have filled the disk since `upload` was admitted.
            if let free, free - c.data.count < limits.freeSpaceReserve {
                s.uploads[client] = nil
                Self.discard(u)
                return .failure(Self.diskFull("chunk", free: free, reserve: limits.freeSpaceReserve, cancelled: true))
            }
            do {
                try u.handle.write(contentsOf: c.data)
            } catch {
                s.uploads[client] = nil
                Self.discard(u)
                return .failure(ProtocolError(.internal, command: "chunk", "cannot stage the upload: \(error)"))
            }
            u.received += c.data.count
            u.touched = .now
            s.uploads[client] = u
            return .success(UploadReply(id: u.id, size: u.size, received: u.received))
        }
        return try result.get()
    }

    /// Takes a complete upload's bytes (and forgets it, deleting its file).
    func take(_ id: String, purpose: UploadRequest.Purpose, client: ClientID, command: String) throws(ProtocolError) -> Data {
        let u = try complete(id, purpose: purpose, client: client, command: command)
        defer { Self.discard(u) }
        do {
            try u.handle.synchronize()
            let data = try Data(contentsOf: URL(fileURLWithPath: u.path))
            guard data.count == u.size else { throw CocoaError(.fileReadCorruptFile) }
            return data
        } catch {
            throw ProtocolError(.internal, command: command, "cannot read the staged upload: \(error)")
        }
    }

    /// Takes a complete `photo` upload into the photo store without reading it (its staged
    /// file is linked there, then forgotten here): the kept photo's name and its first bytes.
    func keep(_ id: String, client: ClientID, command: String) throws(ProtocolError) -> (name: String, bytes: Int, head: [UInt8]) {
        guard let photos else { throw ProtocolError(.busy, command: command, "no database is open in the daemon") }
        let u = try complete(id, purpose: .photo, client: client, command: command)
        defer { Self.discard(u) }
        var head = [UInt8](repeating: 0, count: min(PhotoContent.headLength, u.size))
        do {
            try u.handle.synchronize()
            let got = head.withUnsafeMutableBytes { pread(u.handle.fileDescriptor, $0.baseAddress!, $0.count, 0) }
            guard got == head.count else { throw CocoaError(.fileReadCorruptFile) }
        } catch {
            throw ProtocolError(.internal, command: command, "cannot read the staged upload: \(error)")
        }
        return (try photos.adopt(staged: u.path, fd: u.handle.fileDescriptor, bytes: u.size, command: command), u.size, head)
    }

    /// The upload `id` of `client`, complete and for `purpose`, forgotten here (its file is the
    /// caller's to discard).
    private func complete(_ id: String, purpose: UploadRequest.Purpose, client: ClientID, command: String) throws(ProtocolError) -> Upload {
        let u: Upload? = state.withLock { s in
            guard let u = s.uploads[client], u.id == id else { return nil }
            s.uploads[client] = nil
            return u
        }
        guard let u else {
            throw ProtocolError(.notFound, command: command, field: "upload",
                                "no upload \"\(id)\" on this connection (an upload idle for \(Int(limits.idleSeconds)) s is dropped)")
        }
        guard u.purpose == purpose else {
            Self.discard(u)
            throw ProtocolError(.badField, command: command, field: "upload", "upload \"\(id)\" is for \(u.purpose.rawValue), not \(purpose.rawValue)")
        }
        guard u.received == u.size else {
            Self.discard(u)
            throw ProtocolError(.badField, command: command, field: "upload", "upload \"\(id)\" is incomplete: \(u.received) of \(u.size) bytes")
        }
        return u
    }

    /// Writes an export for `client` to a staged file through `produce` (which is handed the
    /// function to write each piece with) and holds it for `download`, replacing the
    /// connection's earlier download. Returns its id and size. Each piece is charged to
    /// `user`'s staging quota and checked against the disk's reserve before it is written;
    /// past either, the export stops and nothing is held.
    func export(client: ClientID, user: String,
                _ produce: (_ write: (Data) throws -> Void) throws -> Void) throws -> (id: String, size: Int) {
        state.withLock { s in
            s.downloads[client] = nil
            s.exporting[client] = (user, 0)
        }
        defer { _ = state.withLock { $0.exporting.removeValue(forKey: client) } }
        if let problem { throw ProtocolError(.internal, command: "export", "cannot stage the export: \(problem)") }
        let file: StagedDownload
        do { file = try StagedDownload(directory: directory) } catch {
            throw ProtocolError(.internal, command: "export", "cannot stage the export in \(directory): \(error)")
        }
        try produce { data in
            let free = freeBytes(at: directory)
            let refusal: ProtocolError? = state.withLock { s in
                let used = s.used(by: user)
                if used + data.count > limits.bytesPerUser {
                    return ProtocolError(.quota, command: "export",
                        "staged_mib_per_user: this export passes \(Self.mib(limits.bytesPerUser)) staged for \(user) (with \(Self.mib(used)) already staged; download or close other exports first)")
                }
                if let free, free - s.promised - data.count < limits.freeSpaceReserve {
                    return Self.diskFull("export", free: free - s.promised, reserve: limits.freeSpaceReserve)
                }
                s.exporting[client]?.bytes += data.count
                return nil
            }
            if let refusal { throw refusal }
            try file.append(data)
        }
        return state.withLock { s in
            s.next += 1
            let id = "d\(s.next)"
            s.downloads[client] = Download(id: id, user: user, file: file, touched: .now)
            return (id, file.size)
        }
    }

    /// The next bytes of a download; the download is forgotten after its last chunk.
    func read(_ r: DownloadRequest, client: ClientID) throws(ProtocolError) -> ChunkReply {
        let result: Result<ChunkReply, ProtocolError> = state.withLock { s in
            guard var d = s.downloads[client], d.id == r.id else {
                return .failure(ProtocolError(.notFound, command: "download", field: "id",
                    "no download \"\(r.id)\" on this connection (a download not read for \(Int(limits.idleSeconds)) s is dropped)"))
            }
            let size = d.file.size
            guard r.offset <= size else {
                return .failure(ProtocolError(.outOfRange, command: "download", field: "offset", "past the end (\(size) bytes)"))
            }
            let end = min(size, r.offset + Limits.chunkBytes)
            let part: Data
            do { part = try d.file.read(offset: r.offset, count: end - r.offset) } catch {
                s.downloads[client] = nil
                return .failure(ProtocolError(.internal, command: "download", "cannot read the staged export: \(error)"))
            }
            let eof = end == size
            d.touched = .now
            s.downloads[client] = eof ? nil : d
            return .success(ChunkReply(id: d.id, offset: r.offset, data: part, eof: eof))
        }
        return try result.get()
    }

    /// The connection is gone: its unfinished upload is deleted, its download dropped.
    func forget(_ client: ClientID) {
        let u = state.withLock { s in
            s.downloads[client] = nil
            defer { s.uploads[client] = nil }
            return s.uploads[client]
        }
        if let u { Self.discard(u) }
    }

    /// Drops uploads and downloads idle for longer than `limits.idleSeconds` (as of `now`);
    /// returns how many. `HousekeepingService` runs it every ``sweepInterval``.
    @discardableResult
    func expire(now: ContinuousClock.Instant = .now) -> Int {
        let limit = Duration.milliseconds(Int64(limits.idleSeconds * 1000))
        let stale: [Upload] = state.withLock { s in
            let oldUploads = s.uploads.filter { now - $0.value.touched > limit }
            let oldDownloads = s.downloads.filter { now - $0.value.touched > limit }
            for k in oldUploads.keys { s.uploads[k] = nil }
            for k in oldDownloads.keys { s.downloads[k] = nil }
            s.expired += oldUploads.count + oldDownloads.count
            return Array(oldUploads.values)
        }
        for u in stale { Self.discard(u) }
        return stale.count
    }

    /// Uploads and downloads dropped for idleness since start.
    var expiredCount: Int { state.withLock { $0.expired } }

    /// Bytes staged now for `user` (for tests and `status`).
    func stagedBytes(of user: String) -> Int { state.withLock { $0.used(by: user) } }

    /// Files staged now (for tests and `status`).
    var stagedFiles: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasPrefix("upload-") }
    }

    private static func discard(_ u: Upload) {
        try? u.handle.close()
        unlink(u.path)
    }

    static func mib(_ bytes: Int) -> String {
        bytes >= 1 << 20 ? String(format: "%.1f MiB", Double(bytes) / 1_048_576) : "\(bytes) bytes"
    }

    static func diskFull(_ command: String, free: Int, reserve: Int, cancelled: Bool = false) -> ProtocolError {
        ProtocolError(.quota, command: command,
            "disk nearly full: \(mib(max(0, free))) free where the daemon keeps \(mib(reserve)) for its database (free_space_reserve_mib)\(cancelled ? "; the upload is cancelled" : "")")
    }
}

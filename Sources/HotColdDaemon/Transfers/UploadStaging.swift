import Foundation
import HotColdProtocol
import Synchronization

/// Files clients are sending (`upload`/`chunk`) and exports they are fetching (`download`),
/// per connection.
///
/// An upload is staged in a private temporary file (mode 0600, unlinked when consumed, when
/// the connection closes, or at start-up by the directory's cleanup), never in the database:
/// a client that disconnects half-way leaves nothing behind. Each connection holds at most one
/// upload and one download at a time, so one client cannot stage more than 64 MiB + one export.
final class UploadStaging: Sendable {
    struct Upload {
        var id: String
        var purpose: UploadRequest.Purpose
        var size: Int
        var received: Int
        var path: String
        var handle: FileHandle
    }

    struct Download {
        var id: String
        var data: Data
    }

    private struct State {
        var uploads: [ClientID: Upload] = [:]
        var downloads: [ClientID: Download] = [:]
        var next = 0
    }

    private let state = Mutex(State())
    let directory: String

    /// `directory` is created (0700) if needed; stale `upload-*` files in it are removed.
    init(directory: String) {
        self.directory = directory
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        for f in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] where f.hasPrefix("upload-") {
            try? FileManager.default.removeItem(atPath: directory + "/" + f)
        }
    }

    /// Starts an upload for `client`, replacing (and deleting) any unfinished one.
    func begin(_ r: UploadRequest, client: ClientID) throws(ProtocolError) -> UploadReply {
        let (id, path) = state.withLock { s -> (String, String) in
            s.next += 1
            return ("u\(s.next)", "\(directory)/upload-\(getpid())-\(s.next)")
        }
        guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]),
              let handle = FileHandle(forWritingAtPath: path) else {
            throw ProtocolError(.internal, command: "upload", "cannot stage the upload in \(directory)")
        }
        let old = state.withLock { s in
            defer { s.uploads[client] = Upload(id: id, purpose: r.purpose, size: r.size, received: 0, path: path, handle: handle) }
            return s.uploads[client]
        }
        if let old { Self.discard(old) }
        return UploadReply(id: id, size: r.size, received: 0)
    }

    /// Appends a chunk; it must start where the last one ended and not pass the announced size.
    func append(_ c: ChunkRequest, client: ClientID) throws(ProtocolError) -> UploadReply {
        let result: Result<UploadReply, ProtocolError> = state.withLock { s in
            guard var u = s.uploads[client], u.id == c.upload else {
                return .failure(ProtocolError(.notFound, command: "chunk", field: "upload", "no upload \"\(c.upload)\" on this connection"))
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
            do {
                try u.handle.write(contentsOf: c.data)
            } catch {
                s.uploads[client] = nil
                Self.discard(u)
                return .failure(ProtocolError(.internal, command: "chunk", "cannot stage the upload: \(error)"))
            }
            u.received += c.data.count
            s.uploads[client] = u
            return .success(UploadReply(id: u.id, size: u.size, received: u.received))
        }
        return try result.get()
    }

    /// Takes a complete upload's bytes (and forgets it, deleting its file).
    func take(_ id: String, purpose: UploadRequest.Purpose, client: ClientID, command: String) throws(ProtocolError) -> Data {
        let u: Upload? = state.withLock { s in
            guard let u = s.uploads[client], u.id == id else { return nil }
            s.uploads[client] = nil
            return u
        }
        guard let u else { throw ProtocolError(.notFound, command: command, field: "upload", "no upload \"\(id)\" on this connection") }
        defer { Self.discard(u) }
        guard u.purpose == purpose else {
            throw ProtocolError(.badField, command: command, field: "upload", "upload \"\(id)\" is for \(u.purpose.rawValue), not \(purpose.rawValue)")
        }
        guard u.received == u.size else {
            throw ProtocolError(.badField, command: command, field: "upload", "upload \"\(id)\" is incomplete: \(u.received) of \(u.size) bytes")
        }
        do {
            try u.handle.synchronize()
            let data = try Data(contentsOf: URL(fileURLWithPath: u.path))
            guard data.count == u.size else { throw CocoaError(.fileReadCorruptFile) }
            return data
        } catch {
            throw ProtocolError(.internal, command: command, "cannot read the staged upload: \(error)")
        }
    }

    /// Holds an export's bytes for `download`.
    func offer(_ data: Data, client: ClientID) -> String {
        state.withLock { s in
            s.next += 1
            let id = "d\(s.next)"
            s.downloads[client] = Download(id: id, data: data)
            return id
        }
    }

    /// The next bytes of a download; the download is forgotten after its last chunk.
    func read(_ r: DownloadRequest, client: ClientID) throws(ProtocolError) -> ChunkReply {
        let result: Result<ChunkReply, ProtocolError> = state.withLock { s in
            guard let d = s.downloads[client], d.id == r.id else {
                return .failure(ProtocolError(.notFound, command: "download", field: "id", "no download \"\(r.id)\" on this connection"))
            }
            guard r.offset <= d.data.count else {
                return .failure(ProtocolError(.outOfRange, command: "download", field: "offset", "past the end (\(d.data.count) bytes)"))
            }
            let end = min(d.data.count, r.offset + Limits.chunkBytes)
            let part = d.data.subdata(in: r.offset..<end)
            let eof = end == d.data.count
            if eof { s.downloads[client] = nil }
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

    /// Files staged now (for tests and `status`).
    var stagedFiles: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasPrefix("upload-") }
    }

    private static func discard(_ u: Upload) {
        try? u.handle.close()
        unlink(u.path)
    }
}

import Foundation
import HotColdSyncProtocol
import Synchronization

/// Catalogue uploads in progress (`sync catalogue_begin` / `catalogue_chunk` / `catalogue_commit`):
/// at most one per client, pieces strictly in order, the total bounded
/// (``SyncWire/maxUploadBytesInFlight`` across all clients), and nothing applied until the
/// last byte is in. A client that disconnects half-way leaves nothing behind.
///
/// ```swift
/// let id = try uploads.begin(client: c.id, size: 300_000, etag: "\"v2\"", source: "https://api/bigthings")
/// _ = try uploads.append(client: c.id, upload: id, offset: 0, data: piece)
/// let whole = try uploads.take(client: c.id, upload: id)
/// ```
final class CatalogueUploads: Sendable {
    struct Upload {
        var id: Int
        var size: Int
        var etag: String?
        var source: String
        var data = Data()
    }

    private struct State {
        var byClient: [ClientID: Upload] = [:]
        var lastID = 0
    }
    private let state = Mutex(State())

    /// Starts (or restarts) this client's upload.
    func begin(client: ClientID, size: Int, etag: String?, source: String) throws(SyncProtocolError) -> Int {
        try state.withLock { (s: inout State) throws(SyncProtocolError) -> Int in
            s.byClient[client] = nil
            let inFlight = s.byClient.values.reduce(0) { $0 + $1.size }
            guard size <= SyncWire.maxUploadBytesInFlight - inFlight else {
                throw SyncProtocolError("sync catalogue_begin: another catalogue upload is in progress; try again when it is done", code: .busy)
            }
            s.lastID += 1
            s.byClient[client] = Upload(id: s.lastID, size: size, etag: etag, source: source)
            return s.lastID
        }
    }

    /// Adds the next piece; returns the bytes received so far.
    func append(client: ClientID, upload: Int, offset: Int, data: Data) throws(SyncProtocolError) -> Int {
        try state.withLock { (s: inout State) throws(SyncProtocolError) -> Int in
            guard var u = s.byClient[client], u.id == upload else {
                throw SyncProtocolError("sync catalogue_chunk: no upload \(upload) on this connection (start with catalogue_begin)", code: .notFound)
            }
            guard offset == u.data.count else {
                throw SyncProtocolError("sync catalogue_chunk: \"offset\" \(offset) is not the next byte (\(u.data.count))")
            }
            guard data.count <= u.size - u.data.count else {
                throw SyncProtocolError("sync catalogue_chunk: more than the \(u.size) bytes announced", code: .tooLarge)
            }
            s.byClient[client] = nil     // no copy-on-write of the buffer while appending
            u.data.append(data)
            s.byClient[client] = u
            return u.data.count
        }
    }

    /// The complete upload, removed from the table.
    func take(client: ClientID, upload: Int) throws(SyncProtocolError) -> Upload {
        try state.withLock { (s: inout State) throws(SyncProtocolError) -> Upload in
            guard let u = s.byClient[client], u.id == upload else {
                throw SyncProtocolError("sync catalogue_commit: no upload \(upload) on this connection", code: .notFound)
            }
            guard u.data.count == u.size else {
                throw SyncProtocolError("sync catalogue_commit: \(u.data.count) of \(u.size) bytes received")
            }
            s.byClient[client] = nil
            return u
        }
    }

    func discard(client: ClientID) { state.withLock { $0.byClient[client] = nil } }

    var count: Int { state.withLock { $0.byClient.count } }
}

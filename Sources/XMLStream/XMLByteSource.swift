/// Where an ``XMLScanner`` gets its bytes: a file read in chunks (replay's `LineReader`), or a
/// whole document already in memory (``XMLBytes``, the importers'). Called once per chunk, so
/// the scanner's byte loop never goes through the protocol.
public protocol XMLByteSource: AnyObject {
    /// The next run of bytes, valid until the next call; nil at the end.
    func nextChunk() throws -> UnsafeBufferPointer<UInt8>?
}

/// A document in memory, handed out as one chunk.
public final class XMLBytes: XMLByteSource {
    private let storage: UnsafeMutableBufferPointer<UInt8>
    private var given = false

    /// Copies `bytes` (a raw buffer, so the copy is one memcpy, not a generic loop per byte).
    public init(_ bytes: UnsafeRawBufferPointer) {
        storage = .allocate(capacity: bytes.count)
        if bytes.count > 0 { UnsafeMutableRawBufferPointer(storage).copyMemory(from: bytes) }
    }

    deinit { storage.deallocate() }

    public func nextChunk() -> UnsafeBufferPointer<UInt8>? {
        guard !given else { return nil }
        given = true
        return UnsafeBufferPointer(storage)
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The reply to `upload` and to each `chunk`: how much of the upload has arrived.
public struct UploadReply: FixedClassMessage, Equatable {
    public static let wireClass = "UPLOAD"
    public var id: String
    var size: Int
    public var received: Int
    /// The most bytes one chunk may carry.
    var chunkMax: Int

    public init(id: String, size: Int, received: Int, chunkMax: Int = Limits.chunkBytes) {
        self.id = id
        self.size = size
        self.received = received
        self.chunkMax = chunkMax
    }

    var complete: Bool { received == size }
}

/// The reply to `export`: the file is ready as a download of `size` bytes.
public struct ExportReply: FixedClassMessage, Equatable {
    public static let wireClass = "EXPORT"
    public var id: String
    var format: String
    public var size: Int

    public init(id: String, format: String, size: Int) {
        self.id = id
        self.format = format
        self.size = size
    }
}

/// The reply to `download`: bytes from `offset` (base64 on the wire), `eof` on the last.
public struct ChunkReply: FixedClassMessage, Equatable {
    public static let wireClass = "CHUNK"
    var id: String
    var offset: Int
    var data: Data
    var eof: Bool

    public init(id: String, offset: Int, data: Data, eof: Bool) {
        self.id = id
        self.offset = offset
        self.data = data
        self.eof = eof
    }
}

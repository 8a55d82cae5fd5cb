#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HotColdCore

/// `upload`: announce a file (an import, or a photo for `submit`) of `size` bytes, to be sent
/// in `chunk`s. The daemon stages it in a private temporary file that lives only as long as
/// the connection and is consumed by `import` or `submit`.
public struct UploadRequest: RequestBody {
    public enum Purpose: String, Sendable, Codable, CaseIterable {
        case `import`, photo
        /// The Big Things catalogue for `sync catalogue` (hotcold-sync).
        case catalogue
        /// The most bytes an upload for this purpose may have.
        var maxBytes: Int {
            switch self {
            case .import: Limits.importBytes
            case .photo: Limits.photoBytes
            case .catalogue: SyncLimits.catalogueBytes
            }
        }
    }

    public var purpose: Purpose
    public var size: Int

    public init(purpose: Purpose, size: Int) {
        self.purpose = purpose
        self.size = size
    }

    init(_ decoder: any Decoder) throws(ProtocolError) {
        let f = try Fields(decoder, command: "upload", allowed: ["purpose", "size"])
        let p = try f.required(try f.choice("purpose", Purpose.allCases.map(\.rawValue)), "purpose", "import, photo or catalogue")
        purpose = Purpose(rawValue: p)!
        let size = try f.required(try f.integer("size", in: 0...Limits.maxInteger), "size", "the file's length in bytes")
        guard size >= 1, size <= purpose.maxBytes else {
            throw ProtocolError(size < 1 ? .badField : .tooLarge, command: "upload", field: "size",
                                "a \(p) upload holds 1 to \(purpose.maxBytes) bytes, got \(size)")
        }
        self.size = size
    }

    func encode(to encoder: any Encoder) throws {
        var w = try FieldWriter(encoder, command: "upload")
        try w.put("purpose", purpose.rawValue)
        try w.put("size", size)
    }
}

/// `chunk`: the bytes of an upload at `offset` (which must be where the last chunk ended),
/// base64-encoded, at most 32 KiB decoded.
public struct ChunkRequest: RequestBody {
    public var upload: String
    public var offset: Int
    public var data: Data

    public init(upload: String, offset: Int, data: Data) {
        self.upload = upload
        self.offset = offset
        self.data = data
    }

    init(_ decoder: any Decoder) throws(ProtocolError) {
        let f = try Fields(decoder, command: "chunk", allowed: ["upload", "offset", "data"])
        upload = try f.requiredString("upload", max: Limits.idLength, what: "the upload id from UPLOAD")
        offset = try f.required(try f.integer("offset", in: 0...Limits.maxInteger), "offset", "where these bytes start")
        let maxText = (Limits.chunkBytes + 2) / 3 * 4
        let text = try f.requiredString("data", max: maxText, what: "base64 bytes")
        guard let d = Data(base64Encoded: text), !d.isEmpty else {
            throw ProtocolError(.badField, command: "chunk", field: "data", "not base64")
        }
        guard d.count <= Limits.chunkBytes else {
            throw ProtocolError(.tooLarge, command: "chunk", field: "data", "at most \(Limits.chunkBytes) bytes, got \(d.count)")
        }
        data = d
    }

    func encode(to encoder: any Encoder) throws {
        var w = try FieldWriter(encoder, command: "chunk")
        try w.put("upload", upload)
        try w.put("offset", offset)
        try w.put("data", data.base64EncodedString())
    }
}

/// `import`: import a completed upload (all or nothing; see `hotcold import`).
public struct ImportRequest: RequestBody {
    public var upload: String
    /// The file's name, for the report and the import's source.
    public var name: String
    public var strict: Bool

    public init(upload: String, name: String, strict: Bool = false) {
        self.upload = upload
        self.name = name
        self.strict = strict
    }

    init(_ decoder: any Decoder) throws(ProtocolError) {
        let f = try Fields(decoder, command: "import", allowed: ["upload", "name", "strict"])
        upload = try f.requiredString("upload", max: Limits.idLength, what: "the upload id from UPLOAD")
        name = try f.requiredString("name", max: Limits.nameLength, what: "the file's name")
        strict = try f.bool("strict") ?? false
    }

    func encode(to encoder: any Encoder) throws {
        var w = try FieldWriter(encoder, command: "import")
        try w.put("upload", upload)
        try w.put("name", name)
        try w.put("strict", strict)
    }
}

/// `submit`: a new Big Thing for the catalogue, queued for the web API with an optional photo
/// (a completed `photo` upload). Needs a coordinate or an address.
///
/// `key` makes the submission idempotent: a sender that lost the reply (the daemon restarted,
/// the phone's connection dropped) sends the same request with the same key again, and gets
/// the submission stored the first time instead of a second one. A key belongs to its user.
public struct SubmitRequest: RequestBody {
    public struct Photo: Sendable, Equatable {
        public var upload: String
        public var filename: String
        public var contentType: String
        public init(upload: String, filename: String, contentType: String) {
            self.upload = upload
            self.filename = filename
            self.contentType = contentType
        }
    }

    public var name: String
    public var at: Coordinate?
    public var address: String?
    public var by: String?
    public var seenAt: Date
    public var photo: Photo?
    /// The sender's idempotency key (``Limits/submitKeyLength`` characters of A–Z a–z 0–9 `-` `_`).
    public var key: String?

    public init(name: String, at: Coordinate? = nil, address: String? = nil, by: String? = nil,
                seenAt: Date, photo: Photo? = nil, key: String? = nil) {
        self.name = name
        self.at = at
        self.address = address
        self.by = by
        self.seenAt = seenAt
        self.photo = photo
        self.key = key
    }

    /// Whether `key` is a well-formed submission key.
    public static func isKey(_ key: String) -> Bool {
        Limits.submitKeyLength.contains(key.utf8.count)
            && key.utf8.allSatisfy { (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) || $0 == 45 || $0 == 95 }
    }

    init(_ decoder: any Decoder) throws(ProtocolError) {
        let f = try Fields(decoder, command: "submit", allowed: ["name", "lat", "lon", "address", "by", "seen_at", "photo", "key"])
        name = try f.requiredString("name", max: Limits.nameLength, what: "the Big Thing's name")
        at = try f.coordinate()
        address = try f.string("address", max: Limits.textLength)
        if let a = address, a.allSatisfy(\.isWhitespace) {
            throw ProtocolError(.badField, command: "submit", field: "address", "must not be blank")
        }
        if at == nil && address == nil {
            throw ProtocolError(.badField, command: "submit", field: "lat", "missing (give lat and lon, or an address)")
        }
        by = try f.string("by", max: Limits.nameLength)
        seenAt = try f.required(try f.time("seen_at"), "seen_at", "an ISO-8601 time")
        photo = try f.object("photo", allowed: ["upload", "filename", "content_type"]) { p throws(ProtocolError) in
            let upload = try p.requiredString("upload", max: Limits.idLength, what: "the upload id")
            let filename = try p.requiredString("filename", max: Limits.nameLength, what: "the photo's file name")
            let type = try p.requiredString("content_type", max: Limits.idLength, what: "a MIME type such as image/jpeg")
            // Which types a photo may be, here; what its bytes are, when the upload is taken
            // (PhotoContent).
            guard PhotoContent.types.contains(type) else {
                throw ProtocolError(.badField, command: "submit", field: "content_type",
                                    "a photo is one of \(PhotoContent.types.joined(separator: ", ")), not \(type)")
            }
            return Photo(upload: upload, filename: filename, contentType: type)
        }
        key = try f.string("key", max: Limits.submitKeyLength.upperBound)
        if let key, !Self.isKey(key) {
            throw ProtocolError(.badField, command: "submit", field: "key",
                                "\(Limits.submitKeyLength.lowerBound) to \(Limits.submitKeyLength.upperBound) characters of A-Z, a-z, 0-9, - and _")
        }
    }

    func encode(to encoder: any Encoder) throws {
        var w = try FieldWriter(encoder, command: "submit")
        try w.put("name", name)
        try w.put("lat", at?.latitude)
        try w.put("lon", at?.longitude)
        try w.put("address", address)
        try w.put("by", by)
        try w.put("seen_at", ISO8601.format(seenAt))
        if let photo {
            try w.put("photo", ["upload": photo.upload, "filename": photo.filename, "content_type": photo.contentType])
        }
        try w.put("key", key)
    }
}

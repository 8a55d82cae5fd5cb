import Foundation

/// A request relative to the API's base URL.
public struct APIRequest: Sendable {
    /// The largest reply to the catalogue download (the whole list of Big Things).
    public static let catalogueLimit = 16 << 20
    /// The largest reply to anything else (a rating's or a submission's receipt).
    public static let defaultLimit = 1 << 20

    public var method: String
    public var path: String
    public var headers: [String: String]
    public var body: Data?
    /// A body too long to hold, sent as it is read (in place of ``body``).
    public var stream: Stream?
    /// Replies with a longer body (after decompression) are refused (``TransportError/tooLarge(url:limit:)``).
    public var maxResponseBytes: Int

    /// A body read a piece at a time while it is sent: `length` bytes in all, `read(offset)`
    /// giving the next piece from `offset` (at least one byte). Read afresh for every send
    /// (a 307/308 redirect sends it again), so nothing of it is kept between pieces.
    public struct Stream: Sendable {
        public var length: Int
        public var read: @Sendable (_ offset: Int) async throws -> Data

        public init(length: Int, read: @escaping @Sendable (_ offset: Int) async throws -> Data) {
            self.length = length
            self.read = read
        }
    }

    public init(method: String, path: String, headers: [String: String] = [:], body: Data? = nil,
                maxResponseBytes: Int = APIRequest.defaultLimit) {
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
        self.maxResponseBytes = maxResponseBytes
    }
}

/// An HTTP reply; header names lower-cased.
public struct APIResponse: Sendable {
    public var status: Int
    public var headers: [String: String]
    public var body: Data
    public var url: URL

    public init(status: Int, headers: [String: String], body: Data, url: URL) {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
    }

    /// The `{"error": message}` of an error reply, else a short description of the body.
    var errorMessage: String {
        struct ErrorBody: Decodable { var error: String }
        if let m = try? JSONDecoder().decode(ErrorBody.self, from: body) {
            return String(m.error.prefix(500))
        }
        let text = String(decoding: body.prefix(200), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? "HTTP \(status) with no message" : "HTTP \(status): \(text)"
    }
}

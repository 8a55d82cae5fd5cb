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
    /// Replies with a longer body (after decompression) are refused (``TransportError/tooLarge(url:limit:)``).
    public var maxResponseBytes: Int

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

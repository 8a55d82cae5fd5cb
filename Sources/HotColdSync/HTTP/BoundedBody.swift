import AsyncHTTPClient
import Foundation
import NIOCore

/// Reads a reply's body as it arrives, refusing it the moment it would pass the cap: first by
/// its announced Content-Length (nothing is read then), then by counting the bytes as they come
/// (after decompression, so a small compressed body cannot expand into a big one unseen).
///
/// Only what is within the cap is ever held: at most `cap` bytes plus one network read (or one
/// decompressed piece, which NIO bounds to twice the compressed read).
enum BoundedBody {
    enum Refusal: Error {
        case announced(length: Int64, limit: Int)
        case tooLarge(limit: Int)
        case expands(limit: Int)
    }

    static func collect(_ response: HTTPClientResponse, cap: Int) async throws -> Data {
        let compressed = response.headers.first(name: "content-encoding").map { !$0.isEmpty && $0.lowercased() != "identity" } ?? false
        var data = Data()
        if let text = response.headers.first(name: "content-length"), let length = Int64(text) {
            // For a compressed body, the length on the wire: still a promise of more than we take.
            guard length <= Int64(cap) else { throw Refusal.announced(length: length, limit: cap) }
            if !compressed { data.reserveCapacity(Int(length)) }
        }
        for try await chunk in response.body {
            guard chunk.readableBytes <= cap - data.count else {
                // Leaving the loop drops the body's stream: AsyncHTTPClient closes the connection.
                throw compressed ? Refusal.expands(limit: cap) : Refusal.tooLarge(limit: cap)
            }
            chunk.withUnsafeReadableBytes { data.append($0.assumingMemoryBound(to: UInt8.self)) }
        }
        return data
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HotColdProtocol

/// The first checks on anything a friend's topic brings, before it is decoded: its size (each
/// kind of message has a cap far above what a real one needs) and that it is one JSON object.
enum BrokerPayload {
    /// The payload as text, or nil when it is empty (a retained message being cleared).
    static func text(_ payload: [UInt8], cap: Int) throws(FriendMessageError) -> String? {
        guard !payload.isEmpty else { return nil }
        guard payload.count <= cap else { throw FriendMessageError("\(payload.count) bytes (over \(cap))") }
        guard payload.first(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }) == UInt8(ascii: "{") else {
            throw FriendMessageError("not a JSON object")
        }
        return String(decoding: payload, as: UTF8.self)
    }

    /// Decodes one JSON object within the size cap; nil for an empty payload. `decoder`: the
    /// protocol's (`WireCoding.decoder()`) for its messages, a plain one for layouts the
    /// protocol does not define (OwnTracks, hotcold's `…/location`).
    static func decode<T: Decodable>(_ type: T.Type, _ payload: [UInt8], cap: Int,
                                     decoder: JSONDecoder = JSONDecoder()) throws(FriendMessageError) -> T? {
        guard try text(payload, cap: cap) != nil else { return nil }
        do {
            return try decoder.decode(T.self, from: Data(payload))
        } catch let e as ProtocolError {
            throw FriendMessageError(e.message)
        } catch let DecodingError.keyNotFound(key, _) {
            throw FriendMessageError("field \(Self.wireName(key)) missing")
        } catch let DecodingError.typeMismatch(_, c) {
            throw FriendMessageError("field \(Self.path(c)) has the wrong type")
        } catch let DecodingError.valueNotFound(_, c) {
            throw FriendMessageError("field \(Self.path(c)) is null")
        } catch let DecodingError.dataCorrupted(c) where !c.codingPath.isEmpty {
            throw FriendMessageError("field \(Self.path(c)): \(c.debugDescription.prefix(80))")
        } catch {
            throw FriendMessageError("not JSON")
        }
    }

    private static func path(_ c: DecodingError.Context) -> String {
        c.codingPath.map(wireName).joined(separator: ".")
    }

    /// A key as the payload spells it: the protocol's decoder reports `gpsAccuracy` for
    /// `gps_accuracy`.
    private static func wireName(_ key: any CodingKey) -> String {
        var out = ""
        for ch in key.stringValue {
            if ch.isUppercase { out += "_" + ch.lowercased() } else { out.append(ch) }
        }
        return out
    }
}

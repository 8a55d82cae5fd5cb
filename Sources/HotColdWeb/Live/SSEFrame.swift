#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One Server-Sent Events frame, as text. The data is one JSON line (the protocol's encoder
/// escapes newlines), so a frame can never be split or forged by a field's content.
///
/// ```swift
/// SSEFrame.event(seq: 7, name: "ARRIVED", data: #"{"class":"ARRIVED","seq":7}"#).text
/// // "id: 7\nevent: ARRIVED\ndata: {\"class\":\"ARRIVED\",\"seq\":7}\n\n"
/// ```
public struct SSEFrame: Sendable, Equatable {
    public var text: String

    /// A daemon event: its `seq` becomes the frame's id, which the browser sends back as
    /// `Last-Event-ID` when it reconnects.
    public static func event(seq: UInt64, name: String, data: String) -> SSEFrame {
        SSEFrame(text: "id: \(seq)\nevent: \(name)\ndata: \(oneLine(data))\n\n")
    }

    /// State without a number (STATUS, the daemon link, a gap): the browser's last id stays.
    public static func state(name: String, data: String) -> SSEFrame {
        SSEFrame(text: "event: \(name)\ndata: \(oneLine(data))\n\n")
    }

    /// How long the browser waits before reconnecting (milliseconds).
    public static func retry(milliseconds: Int) -> SSEFrame { SSEFrame(text: "retry: \(milliseconds)\n\n") }

    /// Belt and braces: JSON lines hold no raw line breaks, but a frame must never carry one.
    private static func oneLine(_ s: String) -> String {
        s.contains(where: { $0 == "\n" || $0 == "\r" }) ? s.replacingOccurrences(of: "\r", with: "").replacingOccurrences(of: "\n", with: " ") : s
    }
}

/// The `stream` frame, first on every live stream: its name, which the page sends back to say
/// it reads it (`POST /events/read?stream=ID`), and how long the stream lasts without that.
struct StreamHello: Encodable {
    var id: String
    var readS: Double
    enum CodingKeys: String, CodingKey { case id, readS = "read_s" }

    var json: String {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        return (try? String(decoding: e.encode(self), as: UTF8.self)) ?? "{}"
    }
}

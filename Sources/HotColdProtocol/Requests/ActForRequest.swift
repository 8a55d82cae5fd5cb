#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `act_for` (since 1.10): a trusted proxy — `hotcold-web`, which serves phones paired by
/// users of this box — says that what follows on this connection is done for the Unix user
/// `uid`. The daemon then treats the connection as that user's (whose records a write lands
/// in, whose notes a read shows, whether the writer rule lets it write), never as an
/// administrator's. Once per connection; only from a user in `[socket] proxies`, root, or the
/// daemon's own user.
///
/// ```json
/// {"cmd":"act_for","uid":1000}
/// ```
public struct ActForRequest: RequestBody {
    /// The user the connection acts for.
    public var uid: UInt32

    public init(uid: UInt32) { self.uid = uid }

    init(_ decoder: any Decoder) throws(ProtocolError) {
        let f = try Fields(decoder, command: "act_for", allowed: ["uid"])
        // 2^32 − 1 is (uid_t) −1, "no user", in every call that takes one.
        uid = UInt32(try f.required(try f.integer("uid", in: 0...0xFFFF_FFFE), "uid", "the user's numeric id (0–4294967294)"))
    }

    func encode(to encoder: any Encoder) throws {
        var w = try FieldWriter(encoder, command: "act_for")
        try w.put("uid", Int(uid))
    }
}

/// The reply to `act_for`: the user the connection now acts for, and whether that user may
/// change state (the daemon's writer rule applied to the account as it is now).
public struct ActingReply: FixedClassMessage, Equatable {
    public static let wireClass = "ACTING"
    var uid: UInt32
    var user: String
    public var writer: Bool

    public init(uid: UInt32, user: String, writer: Bool) {
        self.uid = uid
        self.user = user
        self.writer = writer
    }
}

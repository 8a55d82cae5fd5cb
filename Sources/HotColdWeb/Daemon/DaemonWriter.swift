#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HotColdProtocol

/// Sends one request from the page to the daemon on a connection of its own, off Swift's
/// cooperative pool (LineClient blocks), and returns the daemon's reply line or its refusal.
///
/// Only the page's requests pass. Writes: `hunt`, `roam`, and `store` with `seen`, `unseen`,
/// `fav`, `unfav`, `rate`, `note` or `add` (a place of one's own where the car is). Reads (`Kind.read`): `place` (a place with this box's
/// user's note, rating and visits, so the page shows what a write would change), `targets` (the
/// whole hunt list when STATUS holds only the nearest 50), `near` (places around the car that
/// are not tracked) and `search` (the Big Things list, a page at a time); the later screens' own
/// requests are in `DaemonWriter+Screens.swift`. The body is the daemon's own request format, decoded and validated by
/// `Request.decode(line:)` — the protocol's one definition — before anything is sent.
public struct DaemonWriter: Sendable {
    public let socketPath: String

    public init(socketPath: String) { self.socketPath = socketPath }

    /// Whether a request changes the daemon's state (a paired writer's device only) or reads it.
    public enum Kind: Sendable { case write, read }

    public enum Outcome: Error, Sendable, Equatable {
        /// The daemon's reply line (TRACKING or STORE).
        case done(String)
        /// The daemon refused: its code and message.
        case refused(code: String, message: String)
        /// The request is not one the page may send, or does not parse.
        case invalid(String)
        case unreachable(String)
    }

    /// Which requests the page may send, and the reply class each expects.
    static func replyClass(_ r: Request, kind: Kind = .write) -> String? {
        if let c = screensReplyClass(r, kind: kind) { return c }
        switch (kind, r) {
        case (.write, .hunt), (.write, .roam): return "TRACKING"
        case (.write, .store(let s)):
            switch s.operation {
            case .seen, .unseen, .fav, .unfav, .rate, .note, .add: return "STORE"
            default: return nil
            }
        case (.read, .place): return "PLACE"
        case (.read, .targets): return "TARGETS"
        case (.read, .near): return "NEAR"
        case (.read, .search): return "PLACES"
        default: return nil
        }
    }

    public func validate(_ body: String, kind: Kind = .write) -> Result<(Request, String), Outcome> {
        guard !body.contains("\n") else { return .failure(.invalid("one line of JSON expected")) }
        switch Request.decode(line: body) {
        case .failure(let e): return .failure(.invalid(e.message))
        case .success(let r):
            guard let cls = Self.replyClass(r, kind: kind) else {
                return .failure(.invalid(kind == .write
                    ? "the page may send hunt, roam, store (seen, unseen, fav, unfav, rate, note, add, rename, delete, observe, amend, unobserve), like, unlike, follow, unfollow and submit only"
                    : "the page may read place, targets, near, search, feed, following and observations only"))
            }
            return .success((r, cls))
        }
    }

    /// `actingFor`: the user who paired the device; the daemon is told (`act_for`) before the
    /// request, so a write is kept as that user's, under that user's writer rule, and a read
    /// shows that user's notes — never hotcold-web's own.
    public func send(_ body: String, kind: Kind = .write, actingFor uid: UInt32? = nil) async -> Outcome {
        let (request, cls): (Request, String)
        switch validate(body, kind: kind) {
        case .failure(let o): return o
        case .success(let v): (request, cls) = v
        }
        let path = socketPath
        return await withCheckedContinuation { (k: CheckedContinuation<Outcome, Never>) in
            do {
                try BlockingThread.start(name: "hotcold-web write") {
                    do throws(ClientError) {
                        let c = try LineClient(path: path)
                        c.maxLineBytes = 1 << 20
                        if let uid { try Self.actFor(uid, on: c) }
                        try c.send(request)
                        k.resume(returning: .done(try c.line(ofClass: cls, timeout: 10)))
                    } catch {
                        switch error {
                        case .refused(let e): k.resume(returning: .refused(code: e.code.rawValue, message: e.message))
                        default: k.resume(returning: .unreachable(error.description))
                        }
                    }
                }
            } catch {
                k.resume(returning: .unreachable("\(error)"))
            }
        }
    }

    /// Tells the daemon that what follows on `c` is done for the user `uid` (`act_for`).
    static func actFor(_ uid: UInt32, on c: LineClient) throws(ClientError) {
        try c.send(.actFor(ActForRequest(uid: uid)))
        _ = try c.line(ofClass: ActingReply.wireClass, timeout: 10)
    }
}

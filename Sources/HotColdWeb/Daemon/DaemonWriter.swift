import Foundation
import HotColdProtocol

/// Sends one write from the page to the daemon on a connection of its own, off Swift's
/// cooperative pool (LineClient blocks), and returns the daemon's reply line or its refusal.
///
/// Only the page's writes pass: `hunt`, `roam`, and `store` with `seen`, `unseen`, `rate` or
/// `note`. The body is the daemon's own request format, decoded and validated by
/// `Request.decode(line:)` — the protocol's one definition — before anything is sent.
public struct DaemonWriter: Sendable {
    public let socketPath: String

    public init(socketPath: String) { self.socketPath = socketPath }

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
    static func replyClass(_ r: Request) -> String? {
        switch r {
        case .hunt, .roam: return "TRACKING"
        case .store(let s):
            switch s.operation {
            case .seen, .unseen, .rate, .note: return "STORE"
            default: return nil
            }
        default: return nil
        }
    }

    public func validate(_ body: String) -> Result<(Request, String), Outcome> {
        guard !body.contains("\n") else { return .failure(.invalid("one line of JSON expected")) }
        switch Request.decode(line: body) {
        case .failure(let e): return .failure(.invalid(e.message))
        case .success(let r):
            guard let cls = Self.replyClass(r) else {
                return .failure(.invalid("the page may send hunt, roam and store (seen, unseen, rate, note) only"))
            }
            return .success((r, cls))
        }
    }

    public func send(_ body: String) async -> Outcome {
        let (request, cls): (Request, String)
        switch validate(body) {
        case .failure(let o): return o
        case .success(let v): (request, cls) = v
        }
        let path = socketPath
        return await withCheckedContinuation { (k: CheckedContinuation<Outcome, Never>) in
            let t = Thread {
                do throws(ClientError) {
                    let c = try LineClient(path: path)
                    try c.send(request)
                    k.resume(returning: .done(try c.line(ofClass: cls, timeout: 10)))
                } catch {
                    switch error {
                    case .refused(let e): k.resume(returning: .refused(code: e.code.rawValue, message: e.message))
                    default: k.resume(returning: .unreachable(error.description))
                    }
                }
            }
            t.name = "hotcold-web write"
            t.start()
        }
    }
}

import Foundation
import HotColdCore
import HotColdProtocol

/// What one sync did: the catalogue pull, then the outbox drain.
///
/// ```swift
/// let report = await syncer.sync()
/// print(report.summary)
/// if report.unreachable != nil { exit(1) }
/// ```
public struct SyncReport: Sendable {
    public enum Catalogue: Sendable {
        /// 304: the stored copy is current.
        case unchanged
        case updated(SyncResult.Catalogue, etag: String?)
        /// The pull failed; the stored copy stays as it was.
        case failed(String)
    }

    public var catalogue: Catalogue?
    /// Items delivered in this sync, in order.
    public var delivered: [QueuedRequest] = []
    /// Items the server refused for good in this sync (400/404/409/422), with its message in `lastError`.
    public var failed: [QueuedRequest] = []
    /// Items still waiting after this sync.
    public var pending = 0
    /// Seconds from the end of this sync until the first waiting item is due (nil when none
    /// waits): a duration, so a wall clock set meanwhile does not change it.
    var nextAttemptIn: Double?
    /// A sentence naming what could not be reached and where, when the server could not be
    /// reached (or refused our credentials); nil when it answered.
    public var unreachable: String?
    /// What the server answered that was not kept (a delivered rating's reply with its numbers
    /// out of range), a sentence each.
    public var notes: [String] = []

    public init() {}

    public var summary: String {
        var lines: [String] = []
        switch catalogue {
        case .unchanged?:
            lines.append("Catalogue: unchanged since the last sync (304).")
        case .updated(let r, let etag)?:
            let i = r.importReport
            var s = "Catalogue: \(i.inserted) new, \(i.updated) updated, \(i.unchanged) unchanged"
            if !r.withdrawn.isEmpty { s += ", \(r.withdrawn.count) withdrawn" }
            if !r.reinstated.isEmpty { s += ", \(r.reinstated.count) back" }
            if !i.skipped.isEmpty { s += ", \(i.skipped.count) invalid rows skipped" }
            s += etag.map { " (ETag \($0))." } ?? "."
            lines.append(s)
        case .failed(let m)?:
            lines.append("Catalogue: not updated: \(m)")
        case nil:
            break
        }
        var o = "Outbox: \(delivered.count) delivered, \(failed.count) failed, \(pending) pending"
        if pending > 0, let next = nextAttemptIn {
            let secs = max(0, next)
            o += " (next attempt in \(JSONLine.number(secs.rounded(.up), decimals: 0)) s)"
        }
        lines.append(o + ".")
        for f in failed {
            lines.append("  failed #\(f.id) \(f.kind)\(f.placeId.map { " " + $0 } ?? ""): \(f.lastError ?? "")")
        }
        for n in notes { lines.append("  note: \(n)") }
        return lines.joined(separator: "\n")
    }
}

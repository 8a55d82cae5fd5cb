import Foundation
import HotColdCore
import HotColdProtocol
import HotColdFormats

/// Keeps the local catalogue current and delivers the outbox, exactly once as the server sees it.
///
/// A sync pulls the catalogue (`If-None-Match` with the stored ETag; 304 is nothing to do;
/// 200 is applied all-or-nothing, withdrawing Big Things the full list no longer has), then
/// drains the outbox in order:
/// - 200/201: the reply (and for a rating, the catalogue's new rating and votes) is stored and
///   the item marked delivered in one transaction;
/// - 400/404/409/422 and other 4xx: final, the item is marked failed with the server's message;
/// - 401/403: our credentials are wrong; nothing is marked, the drain stops;
/// - 408, 429 (Retry-After honoured), 5xx, timeouts, connection failures, a 2xx whose body is
///   not the promised JSON: retried with capped exponential backoff and jitter.
///
/// **Exactly once.** Each item carries the idempotency key it was created with, and is marked
/// delivered only after the reply is stored. Whatever stops a sync — crash, `kill -9`, a lost
/// reply — the item is still pending and is sent again with the same key and body, which the
/// server answers with the first reply instead of counting it again.
///
/// Retries within one sync wait up to `maxWait` seconds in total; what is still failing then
/// stays pending with its next attempt time, for the next sync.
///
/// ```swift
/// The store is an ``OutboxStore``: the database file itself, or the daemon over its socket.
///
/// let syncer = Syncer(store: store, client: try APIClient(baseURL: url, token: token, timeout: 20))
/// let report = await syncer.sync()
/// ```
public final class Syncer: Sendable {
    public struct Options: Sendable {
        public var retry: RetryPolicy
        /// Seconds one sync may spend waiting between retries before giving up until the next.
        public var maxWait: Double
        /// True for the daemon's periodic sync: items wait for their backoff time. A sync the
        /// user asked for (`hotcold sync`) tries at once, except where the server set Retry-After.
        public var honourBackoff: Bool
        /// Who the catalogue import is attributed to.
        public var user: String

        public init(retry: RetryPolicy = RetryPolicy(), maxWait: Double = 30, honourBackoff: Bool = true,
                    user: String = CurrentUser.name) {
            self.retry = retry
            self.maxWait = maxWait
            self.honourBackoff = honourBackoff
            self.user = user
        }
    }

    public let store: any OutboxStore
    public let client: APIClient
    public let options: Options
    let now: @Sendable () -> Date
    let sleep: @Sendable (Double) async throws -> Void

    public init(store: any OutboxStore, client: APIClient, options: Options = Options(),
                now: @escaping @Sendable () -> Date = { Date() },
                sleep: @escaping @Sendable (Double) async throws -> Void = { s in
                    try await Task.sleep(nanoseconds: sleepNanoseconds(s))
                }) {
        self.store = store
        self.client = client
        self.options = options
        self.now = now
        self.sleep = sleep
    }

    /// Pull, then drain. A catalogue the server cannot be reached for skips the drain (it
    /// would fail the same way); any other pull failure does not.
    public func sync() async -> SyncReport {
        var report = SyncReport()
        var budget = options.maxWait
        let pulled = await pull(budget: &budget)
        report.catalogue = pulled.catalogue
        report.unreachable = pulled.unreachable
        if pulled.unreachable == nil {
            await drain(into: &report, budget: &budget)
        } else {
            fillPending(&report)
        }
        return report
    }

    // MARK: Catalogue

    struct PullResult {
        var catalogue: SyncReport.Catalogue
        var unreachable: String?
    }

    func pull(budget: inout Double) async -> PullResult {
        let etag: String?
        do { etag = try store.catalogueETag() } catch {
            let m = "Cannot read the catalogue's state in \(store.location): \(error)."
            return PullResult(catalogue: .failed(m), unreachable: m)
        }
        var headers: [String: String] = [:]
        if let etag { headers["If-None-Match"] = etag }
        let request = APIRequest(method: "GET", path: "bigthings", headers: headers,
                                 maxResponseBytes: APIRequest.catalogueLimit)
        var failures = 0
        while true {
            let problem: String
            var retryAfter: Double?
            var reachable = true
            var reason = ""
            do {
                let r = try await client.send(request)
                switch r.status {
                case 304:
                    return PullResult(catalogue: .unchanged)
                case 200:
                    do {
                        let applied = try store.applyCatalogue(r.body, etag: r.headers["etag"], source: r.url.absoluteString,
                                                               user: options.user)
                        return PullResult(catalogue: .updated(applied, etag: r.headers["etag"]))
                    } catch let e as ImportError {
                        problem = "the server sent a catalogue that cannot be read: \(e)"
                    } catch {
                        return PullResult(catalogue: .failed("\(error)"))
                    }
                case 401, 403:
                    let m = "the Big Things API at \(r.url.absoluteString) refused our credentials (HTTP \(r.status)): \(r.errorMessage)"
                    return PullResult(catalogue: .failed(m), unreachable: m)
                case 408, 429, 500...599:
                    problem = "HTTP \(r.status) from \(r.url.absoluteString): \(r.errorMessage)"
                    retryAfter = RetryPolicy.retryAfter(r.headers["retry-after"], now: now())
                default:
                    return PullResult(catalogue: .failed("HTTP \(r.status) from \(r.url.absoluteString): \(r.errorMessage)"))
                }
            } catch {
                problem = "\(error)"
                switch error {
                case .timeout, .connection:
                    reason = error.reason
                    reachable = false
                case .tooLarge, .announcedTooLarge, .expandsTooLarge, .expandsTooFar, .redirect, .unsafePath:
                    break   // the server answered, with something we refuse
                }
            }
            failures += 1
            let wait = options.retry.delay(afterFailures: failures, retryAfter: retryAfter)
            if wait <= budget {
                budget -= wait
                do { try await sleep(wait) } catch { return PullResult(catalogue: .failed("cancelled")) }
                continue
            }
            let where_ = client.url("bigthings").absoluteString
            return PullResult(catalogue: .failed(problem),
                              unreachable: reachable ? nil : "Cannot reach the Big Things API at \(where_): \(reason).")
        }
    }

    // MARK: Outbox

    /// Delivers what is due, in order.
    public func drainOutbox() async -> SyncReport {
        var report = SyncReport()
        var budget = options.maxWait
        await drain(into: &report, budget: &budget)
        return report
    }

    enum Outcome {
        /// `note`: what of the server's reply was not kept, and why.
        case delivered(APIResponse, catalogue: (placeID: String, rating: Double?, votes: Int?)?, note: String?)
        case final(status: Int?, message: String, body: Data?)
        /// `transport`: no HTTP reply at all (what went wrong, without the URL).
        case retry(status: Int?, message: String, retryAfter: Double?, transport: String?)
        case credentials(String)
    }

    func drain(into report: inout SyncReport, budget: inout Double) async {
        var afterID: Int64 = 0
        var triedThisRun = Set<Int64>()
        while true {
            let next: QueuedRequest?
            do { next = try store.nextQueuedRequest(after: afterID) } catch {
                report.unreachable = report.unreachable ?? "Cannot read the outbox in \(store.location): \(error)."
                break
            }
            guard let item = next else { break }
            let id = item.id
            // When may it go? The server's Retry-After always counts; our own backoff counts
            // for the daemon, and within this sync once we have tried the item.
            var due = item.notBefore ?? .distantPast
            if options.honourBackoff || triedThisRun.contains(id) { due = max(due, item.nextAttemptAt) }
            let wait = due.timeIntervalSince(now())
            if wait > 0 {
                guard wait <= budget else { break }     // in order: later items wait too
                budget -= wait
                do { try await sleep(wait) } catch { break }
            }
            guard (try? store.beginOutboxAttempt(id: id, at: now())) == true else { afterID = id; continue }
            triedThisRun.insert(id)
            let outcome = await deliver(item)
            do {
                switch outcome {
                case .delivered(let r, let catalogue, let note):
                    try store.markOutboxDelivered(id: id, status: r.status, response: r.body, catalogue: catalogue, at: now())
                    if let note { report.notes.append(note) }
                    if let done = try store.queuedRequest(id: id) { report.delivered.append(done) }
                    afterID = id
                case .final(let status, let message, let body):
                    try store.markOutboxFailed(id: id, status: status, message: message, response: body, at: now())
                    if let done = try store.queuedRequest(id: id) { report.failed.append(done) }
                    afterID = id
                case .credentials(let m):
                    try store.scheduleOutboxRetry(id: id, error: m, status: nil, next: now(), notBefore: nil)
                    report.unreachable = m
                    fillPending(&report)
                    return
                case .retry(let status, let message, let retryAfter, let transport):
                    let failures = (item.attempts + 1)
                    let delay = options.retry.delay(afterFailures: failures, retryAfter: retryAfter)
                    let t = now()
                    try store.scheduleOutboxRetry(id: id, error: message, status: status,
                                                  next: t.addingTimeInterval(delay),
                                                  notBefore: retryAfter.map { t.addingTimeInterval(min($0, options.retry.maxRetryAfter)) })
                    if delay > budget {
                        if let transport {
                            report.unreachable = "Cannot reach the Big Things API at \(client.url(item.path).absoluteString): \(transport)."
                        }
                        fillPending(&report)
                        return
                    }
                    // Loop: the same item comes first again, after its wait.
                }
            } catch {
                report.unreachable = report.unreachable ?? "Cannot record the outcome in \(store.location): \(error)."
                break
            }
        }
        fillPending(&report)
    }

    func fillPending(_ report: inout SyncReport) {
        guard let pending = try? store.pendingOutbox() else { return }
        report.pending = pending.count
        if pending.count > 0, let next = pending.nextAttemptAt {
            report.nextAttempt = options.honourBackoff ? max(next, pending.notBefore ?? .distantPast) : (pending.notBefore ?? next)
        }
    }

    func deliver(_ item: QueuedRequest) async -> Outcome {
        let request = APIRequest(method: "POST", path: item.path,
                                 headers: ["Idempotency-Key": item.idempotencyKey], body: item.payload)
        let r: APIResponse
        do { r = try await client.send(request) } catch {
            switch error {
            case .unsafePath:     // stored data that can never be sent safely
                return .final(status: nil, message: error.reason, body: nil)
            case .tooLarge, .announcedTooLarge, .expandsTooLarge, .expandsTooFar, .redirect:
                return .retry(status: nil, message: "\(error)", retryAfter: nil, transport: nil)
            case .timeout, .connection:
                return .retry(status: nil, message: "\(error)", retryAfter: nil, transport: error.reason)
            }
        }
        switch r.status {
        case 200, 201:
            // The reply must be the promised JSON: otherwise it may be a proxy's page, and the
            // resend (same key) will fetch the real one.
            let reply: DeliveryReply
            do { reply = try JSONDecoder().decode(DeliveryReply.self, from: r.body) } catch {
                return .retry(status: r.status, message: "HTTP \(r.status) with a reply that is not the expected JSON object",
                              retryAfter: nil, transport: nil)
            }
            let note = reply.dropped.isEmpty ? nil
                : "#\(item.id) \(item.kind)\(item.placeId.map { " " + $0 } ?? ""): the server's reply was kept without its "
                  + reply.dropped.joined(separator: " and ")
            if item.kind == OutboxItem.Kind.rating.rawValue, let placeID = item.placeId, reply.rating != nil || reply.votes != nil {
                return .delivered(r, catalogue: (placeID, reply.rating, reply.votes), note: note)
            }
            return .delivered(r, catalogue: nil, note: note)
        case 401, 403:
            return .credentials("The Big Things API at \(r.url.absoluteString) refused our credentials (HTTP \(r.status)): \(r.errorMessage).")
        case 408, 429, 500...599:
            return .retry(status: r.status, message: "HTTP \(r.status): \(r.errorMessage)",
                          retryAfter: RetryPolicy.retryAfter(r.headers["retry-after"], now: now()), transport: nil)
        case 400...499:
            return .final(status: r.status, message: r.errorMessage, body: r.body)
        default:
            // 1xx/3xx/other 2xx: not in the contract; try again later rather than lose the item.
            return .retry(status: r.status, message: "unexpected HTTP \(r.status): \(r.errorMessage)", retryAfter: nil, transport: nil)
        }
    }
}

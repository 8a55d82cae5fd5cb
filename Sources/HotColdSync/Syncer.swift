import Foundation
import Synchronization
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
/// **Waits are durations.** A retry's wait is decided once, when the failure arrives (a
/// Retry-After date becomes seconds then), and measured on a clock the wall clock cannot move
/// (`elapsed`, the continuous clock): a box that booted years in the past and then set its
/// clock still retries 60 s after a `Retry-After: 60`. The store keeps wall-clock times for
/// people and for a later process; a time read back that this process did not write is
/// trusted no further than the longest wait the policy sets.
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
    /// The wall clock: only for the times written to the store and shown to people.
    let now: @Sendable () -> Date
    /// Seconds on a clock that never jumps (any origin): every wait is measured on it.
    let elapsed: @Sendable () -> Double
    let sleep: @Sendable (Double) async throws -> Void

    /// When this process decided each pending item may go again, on `elapsed`'s clock, and
    /// the wall-clock times it stored for that decision (to recognise them when read back).
    struct Schedule {
        var next: Double
        var notBefore: Double?
        var storedNext: Date
        var storedNotBefore: Date?
    }
    /// At most one entry per pending item this process has retried; bounded below.
    let schedules = Mutex<[Int64: Schedule]>([:])
    static let scheduleLimit = 4096

    public init(store: any OutboxStore, client: APIClient, options: Options = Options(),
                now: @escaping @Sendable () -> Date = { Date() },
                elapsed: @escaping @Sendable () -> Double = Syncer.continuousSeconds,
                sleep: @escaping @Sendable (Double) async throws -> Void = { s in
                    try await Task.sleep(nanoseconds: sleepNanoseconds(s))
                }) {
        self.store = store
        self.client = client
        self.options = options
        self.now = now
        self.elapsed = elapsed
        self.sleep = sleep
    }

    /// Seconds since the process's first look at the continuous clock.
    public static let continuousSeconds: @Sendable () -> Double = {
        let d = ContinuousClock.now - continuousOrigin
        return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }
    private static let continuousOrigin = ContinuousClock.now

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
                    retryAfter = RetryPolicy.retryAfter(r.headers["retry-after"], serverDate: r.headers["date"], now: now())
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
            let wait = self.wait(for: item, backoff: options.honourBackoff || triedThisRun.contains(id))
            if wait > 0 {
                guard wait <= budget else {             // in order: later items wait too
                    report.nextAttemptIn = wait
                    break
                }
                budget -= wait
                do { try await sleep(wait) } catch { break }
            }
            guard (try? store.beginOutboxAttempt(id: id, at: now())) == true else {
                forget(id)
                afterID = id
                continue
            }
            triedThisRun.insert(id)
            let outcome = await deliver(item)
            do {
                switch outcome {
                case .delivered(let r, let catalogue, let note):
                    try store.markOutboxDelivered(id: id, status: r.status, response: r.body, catalogue: catalogue, at: now())
                    forget(id)
                    if let note { report.notes.append(note) }
                    if let done = try store.queuedRequest(id: id) { report.delivered.append(done) }
                    afterID = id
                case .final(let status, let message, let body):
                    try store.markOutboxFailed(id: id, status: status, message: message, response: body, at: now())
                    forget(id)
                    if let done = try store.queuedRequest(id: id) { report.failed.append(done) }
                    afterID = id
                case .credentials(let m):
                    try store.scheduleOutboxRetry(id: id, error: m, status: nil, next: now(), notBefore: nil)
                    forget(id)
                    report.unreachable = m
                    fillPending(&report)
                    return
                case .retry(let status, let message, let retryAfter, let transport):
                    let failures = (item.attempts + 1)
                    let delay = options.retry.delay(afterFailures: failures, retryAfter: retryAfter)
                    let serverWait = retryAfter.map(options.retry.clampRetryAfter)
                    let t = now()
                    let m = elapsed()
                    let storedNext = t.addingTimeInterval(delay)
                    let storedNotBefore = serverWait.map { t.addingTimeInterval($0) }
                    try store.scheduleOutboxRetry(id: id, error: message, status: status,
                                                  next: storedNext, notBefore: storedNotBefore)
                    remember(id, Schedule(next: m + delay, notBefore: serverWait.map { m + $0 },
                                          storedNext: storedNext, storedNotBefore: storedNotBefore))
                    if delay > budget {
                        report.nextAttemptIn = delay
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
        guard pending.count > 0 else { report.nextAttemptIn = nil; return }
        // The drain knows when the item it stopped at may go; otherwise only the store's times.
        if report.nextAttemptIn == nil, let next = pending.nextAttemptAt {
            let serverWait = pending.notBefore.map { storedWait($0, serverWait: true) }
            let ownWait = storedWait(next, serverWait: pending.notBefore != nil)
            let wait = options.honourBackoff ? max(ownWait, serverWait ?? 0) : (serverWait ?? ownWait)
            report.nextAttemptIn = max(0, wait)
        }
    }

    // MARK: Waits

    /// Seconds until `item` may go (zero or less: now). The server's Retry-After always
    /// counts; our own backoff when `backoff`.
    func wait(for item: QueuedRequest, backoff: Bool) -> Double {
        let nowElapsed = elapsed()
        let known = schedules.withLock { $0[item.id] }
        if let known, Self.same(known.storedNext, item.nextAttemptAt), Self.same(known.storedNotBefore, item.notBefore) {
            var due = known.notBefore ?? -.infinity
            if backoff { due = max(due, known.next) }
            return due - nowElapsed
        }
        // Stored by another process (or changed by one since): wall-clock times of a clock
        // that may have been wrong then or be wrong now. An item never tried is due at once.
        guard item.attempts > 0 else { return 0 }
        var wait = item.notBefore.map { storedWait($0, serverWait: true) } ?? -.infinity
        if backoff { wait = max(wait, storedWait(item.nextAttemptAt, serverWait: item.notBefore != nil)) }
        return wait
    }

    /// Seconds from now to a time read from the store, no longer than the longest wait the
    /// policy sets for it (our backoff, or the server's Retry-After when it gave one): a time
    /// further away was written by a clock that disagrees with today's.
    func storedWait(_ time: Date, serverWait: Bool) -> Double {
        let wait = time.timeIntervalSince(now())
        guard wait.isFinite else { return 0 }
        return min(wait, serverWait ? options.retry.longestWait : options.retry.longestBackoff)
    }

    func remember(_ id: Int64, _ schedule: Schedule) {
        schedules.withLock {
            // More items in retry than any real outbox holds at once: start again from the store.
            if $0.count >= Self.scheduleLimit, $0[id] == nil { $0.removeAll() }
            $0[id] = schedule
        }
    }

    func forget(_ id: Int64) {
        _ = schedules.withLock { $0.removeValue(forKey: id) }
    }

    /// Times that went through the store (and perhaps the socket) lose a little precision.
    static func same(_ a: Date?, _ b: Date?) -> Bool {
        switch (a, b) {
        case (nil, nil): true
        case (let a?, let b?): abs(a.timeIntervalSince(b)) < 0.5
        default: false
        }
    }

    func deliver(_ item: QueuedRequest) async -> Outcome {
        var request = APIRequest(method: "POST", path: item.path,
                                 headers: ["Idempotency-Key": item.idempotencyKey], body: item.payload)
        // A photo's body is read from the store as it goes, never held whole.
        request.stream = store.bodyStream(for: item)
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
                          retryAfter: RetryPolicy.retryAfter(r.headers["retry-after"], serverDate: r.headers["date"], now: now()),
                          transport: nil)
        case 400...499:
            return .final(status: r.status, message: r.errorMessage, body: r.body)
        default:
            // 1xx/3xx/other 2xx: not in the contract; try again later rather than lose the item.
            return .retry(status: r.status, message: "unexpected HTTP \(r.status): \(r.errorMessage)", retryAfter: nil, transport: nil)
        }
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTypes
import Hummingbird
import HotColdProtocol
import NIOCore
import Synchronization

extension WebRoutes {
    /// `POST /api/submit-photo?submit=JSON&filename=NAME` with the photo as the body (its type
    /// `image/jpeg`, `image/png` or `image/webp`, its length given): the page's `submit`
    /// request (without a photo) and the photo, forwarded as the daemon's `upload`, `chunk`s
    /// and `submit` on one connection. The same gate as `/api/command`: a writer's paired
    /// device, this page's Origin, its write rate.
    ///
    /// The photo goes on to the daemon as it arrives, a chunk at a time, never held whole. Its
    /// first bytes must be the type it is sent as (``PhotoContent``), or nothing is sent. Each
    /// device sends one photo at a time, and every photo must keep coming
    /// (``PhotoUploads/Limits``): a sender that dribbles is cut (408) and holds up no one else.
    func submitPhoto(_ request: Request, _ context: WebContext) async throws -> Response {
        let caller = server.caller(request, context)
        guard server.mayWrite(caller) else {
            return json(.forbidden, Outcome(ok: false, code: "not_allowed", message: "this device may not write: it was not paired by a writer"))
        }
        guard let origin = request.headers[.origin], let host = request.head.authority,
              origin == "http://\(host)" || origin == "https://\(host)" else {
            return json(.forbidden, Outcome(ok: false, code: "bad_origin", message: "the request's Origin is not this page's"))
        }
        let type = (request.headers[.contentType] ?? "").split(separator: ";").first.map { $0.trimmingBlanks().lowercased() } ?? ""
        guard DaemonWriter.photoTypes.contains(type) else {
            return json(.unsupportedMediaType, Outcome(ok: false, code: "bad_type", message: "send the photo as image/jpeg, image/png or image/webp"))
        }
        guard server.writes.allow(caller.key(address: context.peerAddress)) else {
            return json(.tooManyRequests, Outcome(ok: false, code: "rate", message: "too many writes from this device; wait a moment"))
        }
        guard let body = request.uri.queryParameters.get("submit").map({ String($0) }) else {
            return json(.badRequest, Outcome(ok: false, code: "bad_request", message: "the submit request is missing (?submit=)"))
        }
        let submission: SubmitRequest
        switch server.writer.photoSubmission(body) {
        case .success(let s): submission = s
        case .failure(let o): return reply(o)
        }
        // The name the catalogue keeps for the file: the phone's, bounded, one line.
        let given = request.uri.queryParameters.get("filename").map({ String($0) }) ?? ""
        let filename = given.isEmpty || !Limits.fits(given, max: Limits.nameLength) || given.contains(where: { $0.isNewline }) ? "photo" : given
        // The daemon's upload is announced with its size: the length comes first.
        guard let length = request.headers[.contentLength].flatMap({ Int($0) }) else {
            return json(.lengthRequired, Outcome(ok: false, code: "length_required", message: "send the photo with its Content-Length"))
        }
        guard length <= Limits.photoBytes else {
            return json(.contentTooLarge, Outcome(ok: false, code: "too_large", message: "a photo holds at most \(Limits.photoBytes >> 20) MiB"))
        }
        guard length > 0 else {
            return json(.badRequest, Outcome(ok: false, code: "bad_request", message: "the photo is empty"))
        }
        let slot: PhotoUploads.Slot
        switch server.photoUploads.take(device: caller.key(address: context.peerAddress)) {
        case .success(let s): slot = s
        case .failure(.deviceBusy):
            return json(.tooManyRequests, Outcome(ok: false, code: "busy", message: "this device is sending a photo already; wait for it to finish"))
        case .failure(.full(let n)):
            return json(.serviceUnavailable, Outcome(ok: false, code: "busy", message: "\(n) photos are on their way to the box; try again in a moment"))
        }
        defer { slot.release() }
        let upload: PhotoUpload
        switch await server.writer.openPhotoUpload(size: length, actingFor: caller.actsFor) {
        case .success(let u): upload = u
        case .failure(let o): return reply(o)
        }
        defer { upload.close() }
        if let failure = try await receive(request.body, length: length, type: type, into: upload) { return failure }
        return reply(await upload.submit(submission, filename: filename, contentType: type))
    }

    /// A reply for the daemon's outcome.
    private func reply(_ outcome: DaemonWriter.Outcome) -> Response {
        switch outcome {
        case .done(let line): return json(.ok, Outcome(ok: true, reply: line))
        case .refused(let code, let message): return json(.unprocessableContent, Outcome(ok: false, code: code, message: message))
        case .invalid(let message): return json(.badRequest, Outcome(ok: false, code: "bad_request", message: message))
        case .unreachable(let message): return json(.badGateway, Outcome(ok: false, code: "unreachable", message: message))
        }
    }

    /// Bytes of the photo arrived so far (the body's task counts, the watchdog reads).
    private final class Arrived: Sendable {
        private let count = Mutex(0)
        func set(_ n: Int) { count.withLock { $0 = n } }
        var bytes: Int { count.withLock { $0 } }
    }

    /// Why a photo's transfer was stopped.
    private enum Cut: Error {
        case deadline(seconds: Double, received: Int, of: Int)
        case slow(bytes: Int, seconds: Double, minimum: Int, received: Int, of: Int)
    }

    /// Reads the photo as it arrives and sends it on in chunks, under the slot's limits; nil
    /// when all `length` bytes are with the daemon, else the reply that says why not.
    private func receive(_ body: RequestBody, length: Int, type: String, into upload: PhotoUpload) async throws -> Response? {
        let limits = server.photoUploads.limits
        let received = Arrived()
        let started = ContinuousClock.now
        let outcome: Result<Response?, Cut>
        do {
            outcome = .success(try await withThrowingTaskGroup(of: Response?.self) { group in
                group.addTask {
                    var pending = Data()
                    var checked = false
                    var total = 0
                    for try await buffer in body {
                        total += buffer.readableBytes
                        received.set(total)
                        guard total <= length else {
                            return json(.contentTooLarge, Outcome(ok: false, code: "too_large", message: "the photo is longer than its Content-Length"))
                        }
                        pending.append(contentsOf: buffer.readableBytesView)
                        // Nothing goes to the daemon before the first bytes say it is the photo it claims to be.
                        if !checked, pending.count >= min(PhotoContent.headLength, length) {
                            if let refusal = PhotoContent.refusal(head: pending.prefix(PhotoContent.headLength), declared: type) {
                                return json(.unsupportedMediaType, Outcome(ok: false, code: "bad_content", message: refusal))
                            }
                            checked = true
                        }
                        while checked, pending.count >= Limits.chunkBytes || (total == length && !pending.isEmpty) {
                            let chunk = pending.prefix(Limits.chunkBytes)
                            if let failure = await upload.send(Data(chunk)) { return reply(failure) }
                            pending.removeFirst(chunk.count)
                        }
                    }
                    guard total == length else {
                        return json(.badRequest, Outcome(ok: false, code: "bad_request", message: "the photo ended after \(total) of \(length) bytes"))
                    }
                    return nil
                }
                group.addTask {
                    // The watchdog: the whole body within the deadline, and every window at the rate.
                    let step = Duration.milliseconds(Int64(max(20, min(250, limits.window * 1000 / 8))))
                    var windowStart = ContinuousClock.now
                    var windowBytes = 0
                    while true {
                        try await Task.sleep(for: step)
                        let now = ContinuousClock.now
                        let got = received.bytes
                        let elapsed = Self.seconds(now - started)
                        if elapsed >= limits.deadline { throw Cut.deadline(seconds: limits.deadline, received: got, of: length) }
                        let inWindow = Self.seconds(now - windowStart)
                        if inWindow >= limits.window {
                            if Double(got - windowBytes) < Double(limits.minimumRate) * inWindow {
                                throw Cut.slow(bytes: got - windowBytes, seconds: inWindow, minimum: limits.minimumRate, received: got, of: length)
                            }
                            windowStart = now
                            windowBytes = got
                        }
                    }
                }
                defer { group.cancelAll() }
                // The body's task ends first unless the watchdog cuts it.
                guard let first = try await group.next() else { return nil }
                return first
            })
        } catch let cut as Cut {
            outcome = .failure(cut)
        }
        switch outcome {
        case .success(let response): return response
        case .failure(.deadline(let seconds, let got, let of)):
            return json(.requestTimeout, Outcome(ok: false, code: "too_slow",
                message: "the photo did not arrive within \(Int(seconds)) s (\(got) of \(of) bytes came); the transfer was stopped: try again where the connection is better"))
        case .failure(.slow(let bytes, let seconds, let minimum, let got, let of)):
            return json(.requestTimeout, Outcome(ok: false, code: "too_slow",
                message: "the photo came at \(Int(Double(bytes) / max(seconds, 0.001))) bytes/s, under the \(minimum >> 10) KiB/s a photo needs (\(got) of \(of) bytes came); the transfer was stopped: try again where the connection is better"))
        }
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }
}

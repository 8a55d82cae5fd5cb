#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
import Glibc
import HotColdProtocol

extension DaemonWriter {
    /// The photo types the page may send: what phones' cameras make. Never a type a cross-site
    /// form can send without a preflight (those are text/plain, urlencoded and multipart).
    static let photoTypes: Set<String> = ["image/jpeg", "image/png", "image/webp"]

    /// The page's `submit` request for a photo, checked by the protocol's own decoder as every
    /// forwarded request is: one line, a submit without a photo (the photo is the body). A
    /// request without an idempotency `key` (a page from before keys) gets one here, so this
    /// side's own retry after a lost reply is safe too.
    func photoSubmission(_ body: String) -> Result<SubmitRequest, Outcome> {
        guard !body.contains("\n") else { return .failure(.invalid("one line of JSON expected")) }
        switch Request.decode(line: body) {
        case .failure(let e): return .failure(.invalid(e.message))
        case .success(.submit(var s)) where s.photo == nil:
            if s.key == nil { s.key = Self.newKey() }
            return .success(s)
        case .success: return .failure(.invalid("a submit request without a photo expected (the photo is the body)"))
        }
    }

    /// 128 random bits as 32 hex digits.
    static func newKey() -> String {
        var g = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let h = String(g.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - h.count) + h
        }.joined()
    }

    /// Starts sending a photo of `size` bytes to the daemon: its own `upload` (purpose
    /// `photo`) on a connection of its own, acting for the user who paired the device. An
    /// upload belongs to the connection that made it (the daemon deletes it when that
    /// connection closes), so a photo half-sent when the phone loses the car's Wi-Fi leaves
    /// nothing behind on the box.
    func openPhotoUpload(size: Int, actingFor uid: UInt32?) async -> Result<PhotoUpload, Outcome> {
        let upload = PhotoUpload(path: socketPath, size: size, uid: uid)
        if let failure = await upload.open() { return .failure(failure) }
        return .success(upload)
    }
}

/// One photo on its way to the daemon: the upload's connection, the chunks as they come, and
/// the `submit` that queues it. Every socket call runs on the upload's own serial queue (the
/// line client blocks; never on Swift's cooperative pool), one at a time, awaited.
final class PhotoUpload: @unchecked Sendable {
    let path: String
    let size: Int
    let uid: UInt32?
    private let queue = DispatchQueue(label: "hotcold-web photo")
    // Touched only on `queue`.
    private var client: LineClient?
    private var id = ""
    private var sent = 0

    init(path: String, size: Int, uid: UInt32?) {
        self.path = path
        self.size = size
        self.uid = uid
    }

    /// Runs `body` on the queue and returns what it returns.
    private func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { k in queue.async { k.resume(returning: body()) } }
    }

    static func outcome(_ error: ClientError) -> DaemonWriter.Outcome {
        switch error {
        case .refused(let e): .refused(code: e.code.rawValue, message: e.message)
        default: .unreachable(error.description)
        }
    }

    /// Connects, acts for the device's user, announces the upload; nil when all went well.
    func open() async -> DaemonWriter.Outcome? {
        await run { [self] in
            do throws(ClientError) {
                let c = try LineClient(path: path)
                client = c
                if let uid { try DaemonWriter.actFor(uid, on: c) }
                id = try c.call(.upload(UploadRequest(purpose: .photo, size: size)), expecting: UploadReply.self, timeout: 10).id
                return nil
            } catch {
                return Self.outcome(error)
            }
        }
    }

    /// Sends the next bytes (at most `Limits.chunkBytes`); nil when the daemon has them.
    func send(_ bytes: Data) async -> DaemonWriter.Outcome? {
        await run { [self] in
            guard let c = client else { return .unreachable("the upload is not open") }
            do throws(ClientError) {
                let r = try c.call(.chunk(ChunkRequest(upload: id, offset: sent, data: bytes)), expecting: UploadReply.self, timeout: 10)
                guard r.received == sent + bytes.count else {
                    return .unreachable("hotcoldd has \(r.received) bytes of the photo, \(sent + bytes.count) were sent")
                }
                sent = r.received
                return nil
            } catch {
                return Self.outcome(error)
            }
        }
    }

    /// Queues the submission with the photo sent. When the connection is lost after the
    /// `submit` went out (the daemon restarted, or its reply was lost), the daemon may have
    /// stored it: the same request (the same key) goes once more on a new connection, within
    /// `reconnect` seconds, and the daemon answers with the submission it stored — or, if it
    /// stored nothing, that the photo upload is gone (the phone sends it again).
    func submit(_ request: SubmitRequest, filename: String, contentType: String, reconnect: Double = 10) async -> DaemonWriter.Outcome {
        await run { [self] in
            guard let c = client else { return .unreachable("the upload is not open") }
            var s = request
            s.photo = .init(upload: id, filename: filename, contentType: contentType)
            do throws(ClientError) {
                try c.send(.submit(s))
                return .done(try c.line(ofClass: "SUBMIT", timeout: 30))
            } catch {
                switch error {
                case .refused, .badReply, .cannotConnect: return Self.outcome(error)
                case .closed, .lost, .timeout:
                    guard s.key != nil else { return Self.outcome(error) }
                    return Self.again(s, path: path, uid: uid, within: reconnect, first: error)
                }
            }
        }
    }

    /// The `submit` again, on a new connection (the first one stays open meanwhile: a daemon
    /// that was only slow goes on storing it, and answers the repeat with what it stored).
    private static func again(_ s: SubmitRequest, path: String, uid: UInt32?, within seconds: Double,
                              first: ClientError) -> DaemonWriter.Outcome {
        let deadline = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
        while true {
            do throws(ClientError) {
                let c = try LineClient(path: path)
                if let uid { try DaemonWriter.actFor(uid, on: c) }
                try c.send(.submit(s))
                return .done(try c.line(ofClass: "SUBMIT", timeout: 30))
            } catch {
                switch error {
                case .refused(let e) where e.code == .notFound && e.field == "upload":
                    // Not stored: the photo went with the connection that carried it.
                    return .unreachable("hotcoldd lost the connection before storing the photo (\(first.description)); nothing was queued: send it again")
                case .cannotConnect where ContinuousClock.now < deadline:
                    usleep(200_000)
                    continue
                default:
                    return Self.outcome(error)
                }
            }
        }
    }

    /// Closes the connection (the daemon deletes an upload not submitted).
    func close() {
        queue.async { [self] in client = nil }
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HotColdProtocol

extension DaemonWriter {
    /// The photo types the page may send: what phones' cameras make. Never a type a cross-site
    /// form can send without a preflight (those are text/plain, urlencoded and multipart).
    static let photoTypes: Set<String> = ["image/jpeg", "image/png", "image/webp"]

    /// A new Big Thing with its photo: the daemon's own `upload` (purpose `photo`), its `chunk`s
    /// and the `submit` naming it, all on one connection. An upload belongs to the connection
    /// that made it (the daemon deletes it when that connection closes), so a photo half-sent
    /// when the phone loses the car's Wi-Fi leaves nothing behind on the box.
    ///
    /// `body` is the page's `submit` request without a photo, checked by the protocol's own
    /// decoder as every forwarded request is.
    /// `actingFor`: the user who paired the device, whose submission it is (``send(_:kind:actingFor:)``).
    public func submit(_ body: String, photo: Data, filename: String, contentType: String,
                       actingFor uid: UInt32? = nil) async -> Outcome {
        guard !body.contains("\n") else { return .invalid("one line of JSON expected") }
        let request: SubmitRequest
        switch Request.decode(line: body) {
        case .failure(let e): return .invalid(e.message)
        case .success(.submit(let s)) where s.photo == nil: request = s
        case .success: return .invalid("a submit request without a photo expected (the photo is the body)")
        }
        guard Self.photoTypes.contains(contentType) else {
            return .invalid("a photo is \(Self.photoTypes.sorted().joined(separator: ", ")), not \(contentType)")
        }
        guard (1...Limits.photoBytes).contains(photo.count) else {
            return .invalid("a photo holds 1 to \(Limits.photoBytes) bytes, got \(photo.count)")
        }
        let path = socketPath
        return await withCheckedContinuation { (k: CheckedContinuation<Outcome, Never>) in
            // A thread of its own, as `send` uses: LineClient blocks.
            do {
                try BlockingThread.start(name: "hotcold-web photo") {
                    do throws(ClientError) {
                        let c = try LineClient(path: path)
                        c.maxLineBytes = 1 << 20
                        if let uid { try Self.actFor(uid, on: c) }
                        let id = try c.upload(photo, purpose: .photo)
                        var s = request
                        s.photo = .init(upload: id, filename: filename, contentType: contentType)
                        try c.send(.submit(s))
                        k.resume(returning: .done(try c.line(ofClass: "SUBMIT", timeout: 10)))
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
}

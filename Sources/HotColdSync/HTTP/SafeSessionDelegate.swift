import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The URLSession delegate behind ``APIClient``: collects each task's reply under a byte cap
/// and decides redirects.
///
/// Why a delegate and not completion-handler tasks: only delegate tasks see the body as it
/// arrives (so the cap holds while reading, not after buffering everything) and are asked
/// before a redirect is followed (FoundationNetworking follows them on its own for
/// completion-handler tasks, copying every header, the Authorization header included).
final class SafeSessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    struct Reply: @unchecked Sendable {   // HTTPURLResponse is a class Foundation never mutates
        var data: Data
        var response: HTTPURLResponse
    }

    enum Refusal: Error {
        case tooLarge(limit: Int)
        case redirect(to: String)
        case notHTTP
    }

    private struct Pending {
        var cap: Int
        var data = Data()
        var response: HTTPURLResponse?
        var redirects = 0
        var done: @Sendable (Result<Reply, any Error>) -> Void
    }

    /// `scheme://host:port` of the API: redirects stay within it.
    let origin: String
    /// Redirects followed per request, at most.
    let maxRedirects = 5
    private let lock = NSLock()
    private var pending: [Int: Pending] = [:]

    init(origin: String) { self.origin = origin }

    func register(_ task: URLSessionTask, cap: Int,
                  done: @escaping @Sendable (Result<Reply, any Error>) -> Void) {
        lock.lock()
        pending[task.taskIdentifier] = Pending(cap: cap, done: done)
        lock.unlock()
    }

    /// Ends a task's wait with `result` (once: later calls find nothing).
    private func finish(_ task: URLSessionTask, _ result: Result<Reply, any Error>) {
        lock.lock()
        let p = pending.removeValue(forKey: task.taskIdentifier)
        lock.unlock()
        p?.done(result)
    }

    private func refuse(_ task: URLSessionTask, _ refusal: Refusal) {
        finish(task, .failure(refusal))
        task.cancel()
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        // Answer URLSession first, then end our wait (cancelling while it waits for this
        // answer trips an assertion in FoundationNetworking).
        guard let http = response as? HTTPURLResponse else {
            completionHandler(.cancel)
            return finish(dataTask, .failure(Refusal.notHTTP))
        }
        lock.lock()
        let cap = pending[dataTask.taskIdentifier]?.cap
        pending[dataTask.taskIdentifier]?.response = http
        lock.unlock()
        if let cap, http.expectedContentLength > Int64(cap) {
            completionHandler(.cancel)
            return finish(dataTask, .failure(Refusal.tooLarge(limit: cap)))
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.lock()
        guard var p = pending[dataTask.taskIdentifier] else { lock.unlock(); return }
        let over = data.count > p.cap - p.data.count
        if !over {
            p.data.append(data)
            pending[dataTask.taskIdentifier] = p
        }
        lock.unlock()
        if over { refuse(dataTask, .tooLarge(limit: p.cap)) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        let target = request.url
        lock.lock()
        pending[task.taskIdentifier]?.redirects += 1
        let count = pending[task.taskIdentifier]?.redirects ?? 0
        lock.unlock()
        guard let target, BaseURL.origin(target) == origin, count <= maxRedirects else {
            // Not followed: no request goes to the other host, with or without the token. The
            // task then ends with the 3xx itself, which finds our wait already over.
            completionHandler(nil)
            return finish(task, .failure(Refusal.redirect(to: target?.absoluteString ?? "(no location)")))
        }
        completionHandler(request)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if let error { return finish(task, .failure(error)) }
        lock.lock()
        let p = pending[task.taskIdentifier]
        lock.unlock()
        guard let p else { return }
        guard let response = p.response ?? (task.response as? HTTPURLResponse) else {
            return finish(task, .failure(URLError(.badServerResponse)))
        }
        finish(task, .success(Reply(data: p.data, response: response)))
    }
}

/// Runs an async operation with a hard deadline: its result, or ``Expired`` when the time is
/// up, whichever comes first. On expiry the operation's task is cancelled, and the operation
/// must stop at once when it is (AsyncHTTPClient does: a cancelled request closes its
/// connection, so no byte more is read or decompressed).
///
/// One deadline for the whole exchange: AsyncHTTPClient's own `deadline:` ends when the
/// reply's head arrives, so a body that drips would otherwise have no end.
///
/// ```swift
/// let reply = try await Deadline.run(seconds: 20) { try await fetchEverything() }
/// ```
enum Deadline {
    struct Expired: Error {}

    static func run<T: Sendable>(seconds: Double, _ operation: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T.self) { group in
            group.addTask { try await operation() }
            group.addTask {
                try await Task.sleep(for: .seconds(max(seconds, 0)))
                throw Expired()
            }
            // The first to finish decides; the other is cancelled (and awaited, which is
            // immediate: a sleep and a request both end when cancelled).
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw CancellationError() }
            return first
        }
    }
}

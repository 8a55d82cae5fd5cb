import HotColdCore

/// Who a `SocketServer.broadcast` line is for.
///
/// ```swift
/// server.broadcast(line: EventMessage(event).line, filter: BroadcastFilter(event))
/// server.broadcast(line: notice, filter: .everyone)
/// ```
public enum BroadcastFilter: Sendable, Equatable {
    /// Every connected client, watching or not (for example a shutdown notice).
    case everyone
    /// Clients whose `Subscription` is watching and accepts this class and target.
    case watchers(className: String, targetID: String?)
    /// A user's personal record (a RECORD: their rating and note): watchers of that class who
    /// are that user, or the daemon's administrator — never every watcher.
    case personal(className: String, user: String)

    /// The filter for an engine event: its class and its target's id.
    init(_ event: Event) {
        self = .watchers(className: event.className, targetID: event.target?.id)
    }
}

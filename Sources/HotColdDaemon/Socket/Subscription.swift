import HotColdProtocol

/// What one client wants to receive from `SocketServer.broadcast`: the state a `watch`
/// command sets. Held by the server so that broadcasting filters without calling out.
///
/// ```swift
/// // watch PROXIMITY and ARRIVED events for two targets only
/// server.setWatch(client: id, Subscription(watching: true,
///                                          classes: ["PROXIMITY", "ARRIVED"],
///                                          targets: ["big-banana", "big-pineapple"]))
/// ```
public struct Subscription: Sendable, Equatable {
    /// Off: the client gets replies and `.everyone` broadcasts, no events.
    var watching: Bool
    /// Event classes wanted; nil means every class.
    var classes: Set<String>?
    /// Target ids wanted; nil means every target. Events that are about no target
    /// (for example `GPS`) pass this filter.
    public var targets: Set<String>?
    /// Whose personal records this client may receive: its own user's; nil for the daemon's
    /// administrator (root or the daemon's own user), who may receive everyone's.
    var reader: String?

    public init(watching: Bool = false, classes: Set<String>? = nil, targets: Set<String>? = nil, reader: String? = nil) {
        self.watching = watching
        self.classes = classes
        self.targets = targets
        self.reader = reader
    }

    /// Whether a broadcast with this filter reaches a client holding this subscription.
    func accepts(_ filter: BroadcastFilter) -> Bool {
        switch filter {
        case .everyone:
            return true
        case .watchers(let className, let targetID):
            guard watching else { return false }
            if let classes, !classes.contains(className) { return false }
            // FIX comes once a second or faster: only to those who asked for it by name.
            if classes == nil, WatchRequest.namedOnly.contains(className) { return false }
            if let targets, let targetID, !targets.contains(targetID) { return false }
            return true
        case .personal(let className, let user):
            guard watching else { return false }
            if let classes, !classes.contains(className) { return false }
            return reader == nil || reader == user
        }
    }
}

import HotColdProtocol

/// An observation's id as a person types it: `obs:` and the first eight hex digits are shown,
/// and any start of the id that only one observation has names it (with or without `obs:`).
enum ObservationID {
    static let prefix = "obs:"

    static func short(_ id: String) -> String {
        id.hasPrefix(prefix) ? prefix + id.dropFirst(prefix.count).prefix(8) : id
    }

    /// The one observation the user can see whose id starts with `text`; the text itself when
    /// none does (the store then says there is no such observation).
    static func resolve(_ text: String, in backend: some StoreBackend) throws -> String {
        let wanted = text.hasPrefix(prefix) ? text : prefix + text
        // A whole id (obs: and a UUID) needs no list to be found.
        if wanted.count == prefix.count + 36 { return wanted }
        let ids = try backend.observations().map(\.id)
        if ids.contains(wanted) { return wanted }
        let matches = ids.filter { $0.hasPrefix(wanted) }
        if matches.count > 1 {
            throw CLIError("\(text) fits \(matches.count) observations (\(matches.prefix(3).map(short).joined(separator: ", "))…); give more of the id")
        }
        return matches.first ?? wanted
    }
}

/// Who is asking, as far as hotcold-web is concerned.
enum Caller: Sendable, Equatable {
    /// A paired device (its cookie holds a valid token).
    case paired(PairedDevice)
    /// No credentials, from this machine: may read, never write.
    case local
    /// No credentials, from elsewhere: may see nothing but how to pair.
    case stranger

    var mayRead: Bool { self != .stranger }

    public var mayWrite: Bool {
        if case .paired(let d) = self { return d.writer }
        return false
    }

    /// The Unix user the daemon should take this caller's requests as (`act_for`): the user
    /// who paired the device. Nil for a local browser, which is hotcold-web's own user.
    var actsFor: UInt32? {
        if case .paired(let d) = self { return d.uid }
        return nil
    }

    /// Identifies the caller for rate limiting: the device, else the address.
    func key(address: String) -> String {
        if case .paired(let d) = self { return "device:" + d.token }
        return "addr:" + address
    }
}

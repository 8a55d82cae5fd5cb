/// Who is asking, as far as hotcold-web is concerned.
public enum Caller: Sendable, Equatable {
    /// A paired device (its cookie holds a valid token).
    case paired(PairedDevice)
    /// No credentials, from this machine: may read, never write.
    case local
    /// No credentials, from elsewhere: may see nothing but how to pair.
    case stranger

    public var mayRead: Bool { self != .stranger }

    public var mayWrite: Bool {
        if case .paired(let d) = self { return d.writer }
        return false
    }

    /// Identifies the caller for rate limiting: the device, else the address.
    func key(address: String) -> String {
        if case .paired(let d) = self { return "device:" + d.token }
        return "addr:" + address
    }
}

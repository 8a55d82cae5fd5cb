import Glibc

/// A `sockaddr_un` built from a path, or from `@name` for the Linux abstract namespace.
struct UnixSocketAddress {
    private(set) var storage = sockaddr_un()
    private(set) var length: socklen_t = 0

    /// Nil when the path is empty or too long for `sun_path` (108 bytes with its terminator).
    init?(_ path: String) {
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: storage.sun_path)
        guard !bytes.isEmpty, bytes.count < capacity, !bytes.contains(0) || bytes.first == UInt8(ascii: "@") else {
            return nil
        }
        storage.sun_family = sa_family_t(AF_UNIX)
        let abstract = bytes.first == UInt8(ascii: "@")
        withUnsafeMutableBytes(of: &storage.sun_path) { raw in
            raw.copyBytes(from: bytes)
            if abstract { raw[0] = 0 }
        }
        let offset = MemoryLayout<sockaddr_un>.offset(of: \sockaddr_un.sun_path)!
        // Abstract names are exactly their bytes; paths include the terminating NUL.
        length = socklen_t(offset + bytes.count + (abstract ? 0 : 1))
    }

    func withSockaddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        withUnsafeBytes(of: storage) { raw in
            body(raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), length)
        }
    }

    /// The path a bound `AF_UNIX` socket reports (`getsockname`), `@name` when abstract.
    static func boundPath(of fd: Int32) -> String? {
        var addr = sockaddr_un()
        var len = socklen_t(MemoryLayout<sockaddr_un>.size)
        let rc = withUnsafeMutableBytes(of: &addr) { raw in
            getsockname(fd, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), &len)
        }
        guard rc == 0, addr.sun_family == sa_family_t(AF_UNIX) else { return nil }
        let offset = MemoryLayout<sockaddr_un>.offset(of: \sockaddr_un.sun_path)!
        let n = Int(len) - offset
        guard n > 0 else { return "" }
        return withUnsafeBytes(of: addr.sun_path) { raw -> String in
            let bytes = Array(raw.prefix(n))
            if bytes[0] == 0 { return "@" + String(decoding: bytes.dropFirst(), as: UTF8.self) }
            return String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}

import NIOCore
import Synchronization

/// Who holds hotcold-web's connections: at most `access.max_connections` in all, and at most
/// `access.max_unpaired_per_address` from one address that have not shown a paired device's
/// cookie. A stranger on the Wi-Fi who opens thousands of connections and never finishes a
/// request holds that many at most (each for `access.idle_timeout` at most), while a paired
/// phone's connections leave the count as soon as its first request head arrives.
///
/// When all connections are taken, a new one pushes out the oldest connection that has not
/// shown a pairing (a paired device's fresh connection then still gets its turn); when only
/// paired devices hold them, the new one is closed. Either way the process never reaches its
/// file limit (`LimitNOFILE=` in the unit is sized for this cap).
public final class ConnectionGate: Sendable {
    public let maxConnections: Int
    let maxUnpairedPerAddress: Int

    struct Entry {
        var address: String
        var channel: any Channel
        var paired: Bool
    }
    struct State {
        var next: UInt64 = 0
        var open: [UInt64: Entry] = [:]
        var unpairedByAddress: [String: Int] = [:]
        var refused = 0
        var evicted = 0
    }
    private let state = Mutex(State())

    public init(maxConnections: Int, maxUnpairedPerAddress: Int) {
        self.maxConnections = maxConnections
        self.maxUnpairedPerAddress = maxUnpairedPerAddress
    }

    enum Admission {
        /// Let in, as ticket `id`; `evict` (the oldest unpaired connection) is to be closed.
        case admitted(id: UInt64, evict: (any Channel)?)
        case refused
    }

    /// A new connection from `address`.
    func open(address: String, channel: any Channel) -> Admission {
        state.withLock { s in
            if s.unpairedByAddress[address, default: 0] >= maxUnpairedPerAddress {
                s.refused += 1
                return .refused
            }
            var evict: (any Channel)?
            if s.open.count >= maxConnections {
                guard let oldest = s.open.filter({ !$0.value.paired }).keys.min(), let e = s.open.removeValue(forKey: oldest) else {
                    s.refused += 1
                    return .refused
                }
                Self.forget(e, in: &s)
                s.evicted += 1
                evict = e.channel
            }
            s.next += 1
            s.open[s.next] = Entry(address: address, channel: channel, paired: false)
            s.unpairedByAddress[address, default: 0] += 1
            return .admitted(id: s.next, evict: evict)
        }
    }

    /// The connection showed a paired device's cookie: it no longer counts against its address.
    func paired(_ id: UInt64) {
        state.withLock { s in
            guard var e = s.open[id], !e.paired else { return }
            Self.forget(e, in: &s)
            e.paired = true
            s.open[id] = e
        }
    }

    func closed(_ id: UInt64) {
        state.withLock { s in
            if let e = s.open.removeValue(forKey: id) { Self.forget(e, in: &s) }
        }
    }

    private static func forget(_ e: Entry, in s: inout State) {
        guard !e.paired else { return }
        let n = s.unpairedByAddress[e.address, default: 0] - 1
        s.unpairedByAddress[e.address] = n > 0 ? n : nil
    }

    var openCount: Int { state.withLock { $0.open.count } }
    var unpairedCount: Int { state.withLock { s in s.open.values.filter { !$0.paired }.count } }
    /// Connections closed at once (an address over its share, or every connection paired).
    public var refused: Int { state.withLock { $0.refused } }
    /// Unpaired connections pushed out to make room.
    public var evicted: Int { state.withLock { $0.evicted } }
}

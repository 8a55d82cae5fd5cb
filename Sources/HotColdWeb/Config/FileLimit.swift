#if canImport(Glibc)
import Glibc
#endif

/// Makes the connection cap fit the process's file limit, so a full cap never becomes a full
/// descriptor table (with which libdispatch, NIO and the daemon links fail in ways no one
/// chose). Each connection is one descriptor; besides them the live streams hold one daemon
/// connection each, and `reserve` covers writes in flight, the control socket, the listening
/// socket, the state file and the runtime's own.
public enum FileLimit {
    public static let reserve = 192

    /// Descriptors `config` may need at most.
    public static func needed(_ config: WebConfiguration) -> Int {
        config.access.maxConnections + config.live.maxClients + reserve
    }

    /// Raises the soft limit towards what the caps need (up to the hard limit); if that is not
    /// enough, lowers `access.max_connections` to fit. Returns a sentence when it lowered it.
    public static func fit(_ config: inout WebConfiguration) -> String? {
        var lim = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &lim) == 0 else { return nil }
        let want = rlim_t(needed(config))
        if lim.rlim_cur < want {
            var raised = lim
            raised.rlim_cur = min(want, lim.rlim_max)
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { lim = raised }
        }
        guard lim.rlim_cur < want else { return nil }
        let fits = Int(lim.rlim_cur) - config.live.maxClients - reserve
        let was = config.access.maxConnections
        config.access.maxConnections = max(16, fits)
        return "the file limit (\(lim.rlim_cur)) is too low for access.max_connections = \(was): serving at most "
            + "\(config.access.maxConnections) connections (raise LimitNOFILE= in the unit)"
    }
}

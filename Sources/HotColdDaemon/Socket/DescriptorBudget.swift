import Glibc

/// How many clients fit under the process's open-file limit.
///
/// Every client holds one descriptor; gpsd, the log, the database (SQLite keeps the file, its
/// WAL and its shared memory open per connection), the listening socket, the waker and the
/// sync's HTTP connections need the rest. The unit sets `LimitNOFILE=` well above the client
/// cap; this keeps the cap below whatever limit the process actually got, so clients can
/// never starve the rest. (`setrlimit` is not tried: the unit's system-call filter forbids it.)
enum DescriptorBudget {
    static func clientCap(requested: Int, reserve: Int) -> Int {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return max(1, requested) }
        // RLIM_INFINITY is UInt64.max; anything past Int.max is "no limit here".
        let soft = limit.rlim_cur > UInt64(Int.max) ? Int.max : Int(limit.rlim_cur)
        return max(1, min(requested, soft - min(reserve, soft / 2)))
    }
}

import Foundation

/// Bounds on what clients stage in the daemon's upload directory (`[quotas]` in the
/// configuration): uploads in progress and exports waiting to be downloaded.
struct StagingLimits: Sendable, Equatable {
    /// Bytes one Unix user may hold staged at once, over all connections: an upload counts
    /// its announced size from `upload` on, an export its size.
    var bytesPerUser = 256 << 20
    /// An upload or download not touched for this long is dropped (its file deleted).
    var idleSeconds: Double = 600
    /// Space kept free on the staging directory's filesystem (the database's: the daemon stages
    /// beside it): an upload or export that would leave less is refused before it is written.
    var freeSpaceReserve = 64 << 20
    /// Bytes the photos of submissions waiting for the web API may take together on disk
    /// (25 photos of the largest size): past it a photo is refused until hotcold-sync has
    /// delivered some.
    var photoStoreBytes = 256 << 20

    init() {}
}

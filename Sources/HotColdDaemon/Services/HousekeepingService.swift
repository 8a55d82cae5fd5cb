import ServiceLifecycle

/// The checks that must happen even when no client asks: staged uploads and downloads idle past
/// their limit are deleted (an idle client sends nothing that could trigger it), and the
/// database file's identity is compared with what its path names (so the journal says at once
/// that it was deleted or replaced). A member of the daemon's `ServiceGroup` like every loop:
/// started by its `run()`, stopped with the group.
struct HousekeepingService: Service {
    let staging: UploadStaging
    let databaseWatch: DatabaseFileWatch?

    public func run() async throws {
        let interval = min(staging.sweepInterval, DatabaseFileWatch.interval)
        await cancelWhenGracefulShutdown {
            var sinceWatch: Duration = .zero
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                staging.expire()
                sinceWatch += interval
                if sinceWatch >= DatabaseFileWatch.interval {
                    sinceWatch = .zero
                    _ = databaseWatch?.check()
                }
            }
        }
    }
}

import Foundation
import Glibc

/// Makes commits durable in groups before anyone is told they happened.
///
/// GRDB opens WAL databases with `synchronous = NORMAL`: a commit is consistent but sits in
/// the page cache until a checkpoint syncs it (about every 4 MB), so a power cut — the
/// ordinary way a car's box stops — loses the changes the daemon already answered `ok` to.
/// `synchronous = FULL` would sync once per commit inside SQLite's write lock, so commits
/// from several users would queue behind each other's syncs. Here every write first commits
/// (the write lock is then free again) and then waits for one `fdatasync` of the WAL that
/// began after its commit: commits that finish while a sync runs share the next one (group
/// commit), and nothing is synced while nothing is written (fixes alone never reach SQLite).
///
/// A sync covers every commit whose caller arrived before the sync began: the WAL frames of
/// a finished commit are in the file, so one `fdatasync` of the file takes them all to the
/// disk. The WAL's directory entry is synced too, once per WAL file (a new WAL lost with its
/// directory entry would lose every commit in it).
///
/// ```swift
/// let sync = CommitSync(databasePath: "/var/lib/hotcold/hotcold.sqlite")
/// try pool.write { db in … }
/// try sync.afterCommit()     // returns once that commit is on the disk
/// ```
final class CommitSync: @unchecked Sendable {
    let databasePath: String
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var requested = 0
    private var completed = 0
    private var syncing = false
    private var syncs = 0
    private var syncedDirectoryFor: ino_t?
    private var lastRequest: ContinuousClock.Instant?

    /// While commits come close together (within `busyWithin`), the one who syncs first waits
    /// `gather` so that commits on their way share its sync; a lone change is synced at once.
    let gather: Duration
    let busyWithin: Duration

    init(databasePath: String, gather: Duration = .milliseconds(3), busyWithin: Duration = .milliseconds(100)) {
        self.databasePath = databasePath
        self.gather = gather
        self.busyWithin = busyWithin
    }

    /// How many syncs have been made (status, tests: flash wears).
    var syncCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return syncs
    }

    /// Returns once every commit that finished before this call is on the disk.
    func afterCommit() throws {
        condition.lock()
        defer { condition.unlock() }
        requested += 1
        let mine = requested
        let now = ContinuousClock.now
        let busy = lastRequest.map { now - $0 < busyWithin } ?? false
        lastRequest = now
        while completed < mine {
            guard !syncing else {
                condition.wait()
                continue
            }
            // This caller syncs for everyone who has arrived so far.
            syncing = true
            if busy, gather > .zero {
                // Others are committing: let the ones on their way join this sync.
                condition.unlock()
                usleep(UInt32(gather.components.attoseconds / 1_000_000_000_000) + UInt32(gather.components.seconds) * 1_000_000)
                condition.lock()
            }
            let covers = requested
            condition.unlock()
            let failure = syncFiles()
            condition.lock()
            syncing = false
            syncs += 1
            if failure == nil { completed = max(completed, covers) }
            condition.broadcast()
            if let failure { throw failure }
        }
    }

    /// `fdatasync` of the WAL (or of the database file when there is no WAL: SQLite then
    /// checkpointed everything into it), and of the directory once per WAL file.
    private func syncFiles() -> CommitSyncError? {
        let wal = databasePath + "-wal"
        var fd = open(wal, O_RDONLY | O_CLOEXEC)
        var path = wal
        if fd < 0, errno == ENOENT {
            fd = open(databasePath, O_RDONLY | O_CLOEXEC)
            path = databasePath
        }
        guard fd >= 0 else { return CommitSyncError(path: path, call: "open", code: errno) }
        defer { close(fd) }
        guard fdatasync(fd) == 0 else { return CommitSyncError(path: path, call: "fdatasync", code: errno) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { return nil }
        condition.lock()
        let known = syncedDirectoryFor == st.st_ino
        condition.unlock()
        if !known {
            let dir = (databasePath as NSString).deletingLastPathComponent
            let dfd = open(dir.isEmpty ? "." : dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if dfd >= 0 {
                let ok = fsync(dfd) == 0
                let code = errno
                close(dfd)
                guard ok else { return CommitSyncError(path: dir, call: "fsync", code: code) }
            }
            condition.lock()
            syncedDirectoryFor = st.st_ino
            condition.unlock()
        }
        return nil
    }
}

/// A commit that could not be made durable: it is in the database, but a power cut now could
/// lose it, so it is not acknowledged.
struct CommitSyncError: Error, CustomStringConvertible {
    public var path: String
    public var call: String
    public var code: Int32

    public var description: String {
        "cannot \(call) \(path) (the change is stored but not yet safe from a power cut): \(String(cString: strerror(code)))"
    }
}

import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Another process holding a SQLite database's write lock: the `sqlite3` shell inside
/// `BEGIN EXCLUSIVE`, until ``release()``. For tests of a writer that meets a busy database.
///
/// ```swift
/// let lock = try SQLiteLockHolder(database: path)   // returns once the lock is held
/// …                                                 // writers get SQLITE_BUSY
/// lock.release()                                    // COMMIT; the shell exits
/// ```
public final class SQLiteLockHolder: @unchecked Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()

    /// True when the `sqlite3` shell is installed (tests skip themselves otherwise).
    public static var available: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3") }

    public init(database: String, timeout: TimeInterval = 10) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = ["-batch", database]
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
        send("BEGIN EXCLUSIVE;\nSELECT 'lock' || 'held';\n")
        // Wait for the marker: the lock is held once the SELECT inside the transaction ran.
        var seen = Data()
        let fd = output.fileHandleForReading.fileDescriptor
        let deadline = Date().addingTimeInterval(timeout)
        while !String(decoding: seen, as: UTF8.self).contains("lockheld") {
            guard Date() < deadline, process.isRunning else {
                release()
                throw Failure(description: "sqlite3 \(database) did not take the lock: \(String(decoding: seen, as: UTF8.self))")
            }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&p, 1, 100) > 0 {
                var buf = [UInt8](repeating: 0, count: 4096)
                let n = read(fd, &buf, buf.count)
                if n > 0 { seen.append(contentsOf: buf[..<n]) }
            }
        }
    }

    deinit { release() }

    private func send(_ text: String) {
        try? input.fileHandleForWriting.write(contentsOf: Data(text.utf8))
    }

    /// Commits and ends the shell, releasing the lock. Idempotent.
    public func release() {
        guard process.isRunning else { return }
        send("COMMIT;\n.quit\n")
        try? input.fileHandleForWriting.close()
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}

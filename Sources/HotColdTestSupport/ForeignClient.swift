import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `Tests/Clients/hostile_client.py` run as another uid through `setpriv`, its stdin held
/// open until `finish()`: a client process whose credentials are really that user's.
public final class ForeignClient: @unchecked Sendable {
    public let process = Process()
    private let stdinPipe = Pipe()
    private let stdoutPipe = Pipe()
    private var buffer = Data()

    /// `groups`: nil clears the supplementary groups; otherwise exactly these gids.
    public init(uid: UInt32, gid: UInt32, groups: [UInt32]? = nil, arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        let groupArgs = groups.map { $0.isEmpty ? ["--clear-groups"] : ["--groups=" + $0.map(String.init).joined(separator: ",")] }
            ?? ["--clear-groups"]
        process.arguments = ["--reuid=\(uid)", "--regid=\(gid)"] + groupArgs
            + ["/usr/bin/python3", TestData.repo("Tests/Clients/hostile_client.py").path] + arguments
        process.standardInput = stdinPipe
        process.standardOutput = stdoutPipe
        process.standardError = FileHandle.standardError
        try process.run()
    }

    /// The next line of output (nil at end, or after `timeout` seconds).
    public func readLine(timeout: TimeInterval = 60) -> String? {
        let fd = stdoutPipe.fileHandleForReading.fileDescriptor
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let nl = buffer.firstIndex(of: 10) {
                let line = String(decoding: buffer[..<nl], as: UTF8.self)
                buffer.removeSubrange(...nl)
                return line
            }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return nil }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, Int32(min(left, 1) * 1000)) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let n = read(fd, &chunk, chunk.count)
            if n <= 0 { return nil }
            buffer.append(contentsOf: chunk[..<n])
        }
    }

    /// The next output line as a JSON object.
    public func readObject(timeout: TimeInterval = 60) -> [String: Any]? {
        readLine(timeout: timeout).flatMap(LineClient.object)
    }

    public func write(_ line: String) {
        stdinPipe.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Closes stdin (ending `connect` and `ask`) and waits for the process.
    public func finish() {
        try? stdinPipe.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}

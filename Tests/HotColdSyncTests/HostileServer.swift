import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HotColdTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `Tests/APIServer/hostile_server.py` on a free loopback port: every API request gets the
/// same ruinous reply (`mode`), and `/_control/state` tells what the server saw of each
/// connection (bytes sent, whether the client hung up).
final class HostileServer: @unchecked Sendable {
    let process = Process()
    let port: Int
    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    struct Connection {
        var sent: Int
        var hungUp: Bool
        var seconds: Double?
    }

    init(mode: String) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", TestData.repo("Tests/APIServer/hostile_server.py").path, "--port", "0", "--mode", mode]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        var text = ""
        while !text.contains("\n") {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        guard let line = text.split(separator: "\n").first, line.hasPrefix("PORT "), let p = Int(line.dropFirst(5)) else {
            process.terminate()
            throw ReferenceServer.Failure(description: "the hostile server did not start: \(text)")
        }
        port = p
    }

    /// SIGKILL: a child of the test runner inherits its blocked signals, SIGTERM included.
    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// The API connections so far, in order.
    func connections() async throws -> [Connection] {
        var r = URLRequest(url: url.appendingPathComponent("_control/state"))
        r.setValue("close", forHTTPHeaderField: "Connection")
        r.timeoutInterval = 10
        let (data, _) = try await URLSession.shared.data(for: r)
        let list = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
        return list.map { Connection(sent: $0["sent"] as? Int ?? -1, hungUp: $0["hung_up"] as? Bool ?? false, seconds: $0["seconds"] as? Double) }
    }
}

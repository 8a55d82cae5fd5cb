import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HotColdTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The reference Big Things server (`Tests/APIServer/bigthings_server.py`) on a free loopback
/// port, with its control endpoint: fault switches and the server's own counters.
final class ReferenceServer: @unchecked Sendable {
    let process = Process()
    let port: Int
    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    struct Failure: Error, CustomStringConvertible { var description: String }

    init(token: String? = nil, catalogue: String? = nil) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", TestData.repo("Tests/APIServer/bigthings_server.py").path, "--port", "0"]
            + (token.map { ["--token", $0] } ?? []) + (catalogue.map { ["--catalogue", $0] } ?? [])
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
            throw Failure(description: "the reference server did not start: \(text)")
        }
        port = p
    }

    /// SIGKILL: a child of the test runner inherits its blocked signals, SIGTERM included.
    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// POSTs to /_control/NAME and returns the server's state afterwards.
    @discardableResult
    func control(_ name: String, _ body: [String: Any] = [:]) async throws -> [String: Any] {
        var r = URLRequest(url: url.appendingPathComponent("_control/\(name)"))
        r.httpMethod = "POST"
        r.httpBody = try JSONSerialization.data(withJSONObject: body)
        r.setValue("close", forHTTPHeaderField: "Connection")
        r.timeoutInterval = 10
        let (data, _) = try await URLSession.shared.data(for: r)
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    func faults(_ faults: [[String: Any]]) async throws { try await control("faults", ["faults": faults]) }
    func release() async throws { try await control("release") }
    func clearFaults() async throws { try await control("clear") }

    func state() async throws -> [String: Any] {
        var r = URLRequest(url: url.appendingPathComponent("_control/state"))
        r.setValue("close", forHTTPHeaderField: "Connection")
        r.timeoutInterval = 10
        let (data, _) = try await URLSession.shared.data(for: r)
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    func int(_ key: String) async throws -> Int { try await state()[key] as? Int ?? -1 }

    /// The current catalogue body, as the API serves it.
    func catalogue() async throws -> [String: Any] {
        var r = URLRequest(url: url.appendingPathComponent("bigthings"))
        r.setValue("close", forHTTPHeaderField: "Connection")
        let (data, _) = try await URLSession.shared.data(for: r)
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    /// Waits (up to `seconds`) until the server's state satisfies `condition`.
    func wait(seconds: Double = 30, until condition: ([String: Any]) -> Bool) async throws -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if condition(try await state()) { return true }
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        return false
    }
}

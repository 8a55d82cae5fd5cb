import Foundation
@_exported import HotColdProtocol

/// Tests use the protocol's one line client (`HotColdProtocol.LineClient`) and these loose
/// readers on top of it, for asserting on lines whose shape a test wants to see as written.
extension LineClient {
    /// Reads until a line whose `"class"` is `cls`, returning it as a dictionary (and
    /// skipping others). The deadline is generous: it only matters when the line never
    /// comes, and a loaded machine (the whole suite on two cores) can take seconds.
    public func read(class cls: String, timeout: TimeInterval = 30) throws -> [String: Any] {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            guard let line = try readLine(timeout: max(0.01, deadline.timeIntervalSinceNow)) else {
                throw TestFailure("closed before a \(cls)")
            }
            if let o = Self.object(line), o["class"] as? String == cls { return o }
        }
    }

    /// Connects with the kernel's receive buffer shrunk to `receiveBuffer` bytes, so the
    /// daemon's writes back up after a few lines (tests of slow readers).
    public convenience init(path: String, receiveBuffer: Int32) throws {
        try self.init(path: path)
        var size = receiveBuffer
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Sends text exactly as given (no newline added), ignoring failures: for framing tests.
    public func sendRaw(_ text: String) { try? send(bytes: Array(text.utf8)) }
    public func sendRaw(bytes: [UInt8]) { try? send(bytes: bytes) }

    public static func object(_ line: String) -> [String: Any]? {
        try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
    }

    /// Polls `status` until the daemon reports gpsd connected.
    public func waitUntilGPSDConnected(timeout: TimeInterval = 10) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let s = try call(.status, expecting: StatusReply.self)
            if s.gps.link == "connected" { return }
            usleep(100_000)
        }
        throw TestFailure("daemon never connected to gpsd")
    }
}

/// A test helper's failure, with what went wrong.
public struct TestFailure: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

import Foundation

/// Runs a program to completion and captures its output. For end-to-end tests of the built binaries.
public struct ProcessResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
}

public enum Subprocess {
    /// Runs `executable` with `arguments`; stdin from `input` when given. Output is read while
    /// the process runs, so large outputs cannot deadlock on a full pipe.
    public static func run(_ executable: URL, _ arguments: [String], input: Data? = nil,
                           environment: [String: String]? = nil,
                           currentDirectory: URL? = nil) throws -> ProcessResult {
        let p = Process()
        p.executableURL = executable
        p.arguments = arguments
        if let environment {
            p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        if let currentDirectory { p.currentDirectoryURL = currentDirectory }
        let out = Pipe(), err = Pipe(), inp = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = inp
        try p.run()
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data(), errData = Data()
        DispatchQueue.global().async(group: group) { outData = out.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: group) { errData = err.fileHandleForReading.readDataToEndOfFile() }
        if let input { inp.fileHandleForWriting.write(input) }
        try? inp.fileHandleForWriting.close()
        p.waitUntilExit()
        group.wait()
        return ProcessResult(status: p.terminationStatus,
                             stdout: String(decoding: outData, as: UTF8.self),
                             stderr: String(decoding: errData, as: UTF8.self))
    }
}

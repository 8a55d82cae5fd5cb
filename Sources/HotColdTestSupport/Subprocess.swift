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
        // Each pipe is read on a thread of its own, never on a dispatch queue: a reader blocks
        // until its program ends, and a pool of such readers (a parallel suite runs many
        // programs) could hold back every other job on that queue, this program's own reader
        // among them, which would leave the program stuck on a full pipe.
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var outData = Data(), errData = Data()
        Thread { outData = out.fileHandleForReading.readDataToEndOfFile(); done.signal() }.start()
        Thread { errData = err.fileHandleForReading.readDataToEndOfFile(); done.signal() }.start()
        if let input { inp.fileHandleForWriting.write(input) }
        try? inp.fileHandleForWriting.close()
        p.waitUntilExit()
        done.wait()
        done.wait()
        return ProcessResult(status: p.terminationStatus,
                             stdout: String(decoding: outData, as: UTF8.self),
                             stderr: String(decoding: errData, as: UTF8.self))
    }
}

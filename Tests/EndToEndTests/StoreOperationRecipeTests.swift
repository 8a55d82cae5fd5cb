import Foundation
@testable import HotColdProtocol
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// The route table's recipe for a new store operation (the head of DaemonCommands+Routes.swift)
/// holds: it names at most six files, each exists, and every operation the protocol has is in
/// each of them and in nothing the recipe leaves out — so a seventh hand-kept list would show
/// up here as an operation missing from it, or as a recipe that no longer fits in six.
@Suite(.offCooperativePool) struct StoreOperationRecipeTests {
    static let routes = "Sources/HotColdDaemon/Commands/DaemonCommands+Routes.swift"

    static func text(_ path: String) throws -> String {
        try String(contentsOf: TestData.repo(path), encoding: .utf8)
    }

    /// The recipe's numbered steps, each with the file it names first (in backquotes).
    static func steps() throws -> [(n: Int, file: String)] {
        let source = try text(routes)
        let start = try #require(source.range(of: "## Adding a store operation"))
        let end = try #require(source.range(of: "## Adding a command", range: start.upperBound..<source.endIndex))
        return source[start.upperBound..<end.lowerBound].split(separator: "\n").compactMap { line in
            guard let m = line.firstMatch(of: /^\/\/\/ (\d+)\. `([^`]+)`/) else { return nil }
            return (Int(m.1)!, String(m.2))
        }
    }

    @Test func theRecipeNamesAtMostSixFilesAndEachExists() throws {
        let steps = try Self.steps()
        #expect(!steps.isEmpty && steps.count <= 6, "\(steps)")
        #expect(steps.map(\.n) == Array(1...steps.count), "numbered in order: \(steps.map(\.n))")
        for s in steps where !s.file.contains("<") {
            #expect(FileManager.default.fileExists(atPath: TestData.repo(s.file).path), "step \(s.n): \(s.file)")
        }
    }

    @Test func everyOperationIsInEachFileTheRecipeNames() throws {
        let steps = try Self.steps()
        let ops = StoreRequest.operations
        #expect(ops.count >= 10, "\(ops)")
        for s in steps {
            for op in ops {
                let command = op.prefix(1).uppercased() + op.dropFirst() + "Command"
                let path = s.file.replacingOccurrences(of: "<Name>", with: op.prefix(1).uppercased() + op.dropFirst())
                let body = try Self.text(path)
                let found: Bool
                switch path {
                case _ where path.hasSuffix("StoreRequest.swift"), _ where path.hasSuffix("StoreExecutor.swift"):
                    found = body.contains("case .\(op)(") || body.contains(", .\(op)(") || body.contains("case \(op)(")
                case _ where path.hasSuffix("StoreCommands.swift"):
                    found = body.contains("\(command).self")
                case _ where path.hasSuffix("PROTOCOL.md"):
                    // A row of the `store` table: the op in its first cell (`fav`, `unfav` share one).
                    found = body.split(separator: "\n").contains { line in
                        line.hasPrefix("| `") && line.split(separator: "|").first.map { $0.contains("`\(op)`") } == true
                    }
                case _ where path.hasSuffix(".schema.json"):
                    found = body.contains("\"const\": \"\(op)\"")
                default:
                    found = body.contains("struct \(command)")
                }
                #expect(found, "store op \(op) is not in \(path) (step \(s.n) of the recipe)")
            }
        }
    }
}

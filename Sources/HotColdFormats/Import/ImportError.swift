import HotColdProtocol

/// Why a whole file was refused. Nothing from the file is stored when one of these is thrown.
///
/// ```swift
/// do { try store.importFile(at: url) }
/// catch let e as ImportError { print(e) }   // "bad.json: line 3, column 1: expected a value, found '}'"
/// ```
public enum ImportError: Error, Sendable, Equatable, CustomStringConvertible {
    case unreadable(file: String, reason: String)
    case unrecognisedFormat(file: String, reason: String)
    case malformed(file: String, line: Int, column: Int, message: String)
    /// The file's shape is wrong (e.g. no `things` array).
    case structure(file: String, message: String)
    /// A row that cannot be skipped (observations: one bad row refuses the file).
    case invalidRow(file: String, issue: ImportIssue)
    /// `--strict` and some rows were invalid.
    case rejected(file: String, issues: [ImportIssue])

    public var description: String {
        switch self {
        case .unreadable(let file, let reason): "\(file): cannot read the file: \(reason)"
        case .unrecognisedFormat(let file, let reason): "\(file): not a format hotcold imports (\(reason))"
        case .malformed(let file, let line, let column, let message):
            "\(file): line \(line), column \(column): \(message); nothing was imported"
        case .structure(let file, let message): "\(file): \(message); nothing was imported"
        case .invalidRow(let file, let issue): "\(file): \(issue); nothing was imported"
        case .rejected(let file, let issues):
            "\(file): \(issues.count) invalid row\(issues.count == 1 ? "" : "s") and --strict, so nothing was imported:\n"
                + issues.map { "  \($0)" }.joined(separator: "\n")
        }
    }
}

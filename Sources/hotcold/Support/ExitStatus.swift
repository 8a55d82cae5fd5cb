import ArgumentParser
import Foundation
import GPSInput
import HotColdConfig
import HotColdCore
import HotColdProtocol
import HotColdStore

/// How `hotcold` ends, in sysexits.h's words, so a script can tell "fix your command" (64) from
/// "the daemon is down" (69), "try again later" (75) and "you may not" (77). Every subcommand's
/// failure goes through ``init(for:)``: the one place an error becomes a status. README's
/// "Exit status" table lists them.
struct ExitStatus: RawRepresentable, Hashable, Sendable, ExpressibleByIntegerLiteral {
    var rawValue: Int32
    init(rawValue: Int32) { self.rawValue = rawValue }
    init(integerLiteral value: Int32) { rawValue = value }

    static let success: ExitStatus = 0
    /// EX_USAGE: the command line is wrong (ArgumentParser's own status for validation errors).
    static let usage: ExitStatus = 64
    /// EX_DATAERR: the input is wrong: a file's content, a value, a place id that does not exist.
    static let dataError: ExitStatus = 65
    /// EX_NOINPUT: a file named does not exist or cannot be read.
    static let noInput: ExitStatus = 66
    /// EX_UNAVAILABLE: hotcoldd (or the web API) cannot be reached, or went away.
    static let unavailable: ExitStatus = 69
    /// EX_SOFTWARE: a failure that is not the user's: the daemon's internal error, a bug.
    static let software: ExitStatus = 70
    /// EX_CANTCREAT: an output file (the database, an export) cannot be created.
    static let cannotCreate: ExitStatus = 73
    /// EX_IOERR: reading or writing failed on the way (disk full, a damaged database).
    static let ioError: ExitStatus = 74
    /// EX_TEMPFAIL: not now, maybe later: the daemon is busy, a quota is reached, the database is locked.
    static let temporaryFailure: ExitStatus = 75
    /// EX_PROTOCOL: the daemon and this client do not understand each other (versions apart).
    static let protocolError: ExitStatus = 76
    /// EX_NOPERM: this Unix user may not do this (the daemon's `not_allowed`, a file's mode).
    static let noPermission: ExitStatus = 77
    /// EX_CONFIG: the configuration file is wrong, or names no web API.
    static let configuration: ExitStatus = 78

    /// The status for `error`, whatever threw it.
    init(for error: any Error) {
        switch error {
        case let e as CLIError: self = e.code
        case let e as ClientError: self = Self(for: e)
        case let e as any CodedError: self = e.isUnreadableInput ? .noInput : Self(code: e.code, command: (e as? ProtocolError)?.command)
        case let e as TrackReadError: self = Self(for: e)
        case is ConfigError: self = .configuration
        case is JSONSyntaxError, is ImportIssue, is PointTargetError: self = .dataError
        default: self = DatabaseFailure(error).map { Self(for: $0.kind) } ?? .software
        }
    }

    private init(for e: ClientError) {
        switch e {
        case .cannotConnect(_, let reason) where reason == Self.permissionDenied: self = .noPermission
        case .cannotConnect, .lost, .closed, .timeout: self = .unavailable
        case .refused(let p): self = Self(code: p.code, command: p.command)
        case .badReply: self = .protocolError
        }
    }

    /// The one mapping from a protocol error code (PROTOCOL.md, "Errors") to a status: the
    /// daemon's `ERROR` replies and the store's own errors (``CodedError``) alike, so `--db`
    /// and the socket end the same way.
    init(code: ErrorCode, command: String?) {
        switch code {
        case .notAllowed: self = .noPermission
        // A place the user named that is not there is wrong input; an upload or download the
        // daemon no longer holds (expired, dropped) is worth trying again.
        case .notFound: self = ["chunk", "download", "import", "submit"].contains(command ?? "") ? .temporaryFailure : .dataError
        case .badField, .outOfRange, .tooLarge: self = .dataError
        case .busy, .quota: self = .temporaryFailure
        case .badJSON, .unknownCommand: self = .protocolError
        case .internal: self = .software
        }
    }

    private init(for e: TrackReadError) {
        switch e.reason {
        case .system, .isDirectory, .notRegularFile: self = .noInput
        default: self = .dataError
        }
    }

    /// A database failure, by what the user can do about it.
    private init(for kind: DatabaseFailure.Kind) {
        switch kind {
        case .locked: self = .temporaryFailure
        case .notPermitted: self = .noPermission
        case .cannotOpen: self = .cannotCreate
        case .badData: self = .dataError
        case .io: self = .ioError
        case .other: self = .software
        }
    }

    /// strerror(EACCES): the socket's mode or directory keeps this user out.
    static let permissionDenied = String(cString: strerror(EACCES))
}

extension ExitCode {
    /// For a command that ends itself with a status (`throw ExitCode(.unavailable)`).
    init(_ status: ExitStatus) { self.init(status.rawValue) }
}

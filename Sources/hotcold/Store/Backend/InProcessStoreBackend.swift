import Foundation
import HotColdCore
import HotColdProtocol
import HotColdStore

/// `--db`: the daemon's own ``StoreExecutor``, called in this process on the database file
/// itself, as the current Unix user. Each request makes the trip its line would make to the
/// daemon (encoded, decoded and checked by the same decoder) and comes back as the daemon's
/// reply line, so offline work answers exactly as the socket does.
///
/// The file's owner sees every user's records in it (observations, the outbox), as the
/// daemon's administrator does. The store's own failures (a missing place, a locked file)
/// are thrown as they are, in the store's words and with its exit status.
final class InProcessStoreBackend: StoreBackend {
    let executor: StoreExecutor
    let user: String
    /// Uploads and prepared downloads, held in memory between the requests that name them.
    private let files = HeldFiles()

    init(store: Store, user: String) {
        executor = StoreExecutor(store: store)
        self.user = user
    }

    /// No receiver here: a command needing a position asks for `--at`.
    func currentPosition() throws -> Coordinate? { nil }

    func exchange(_ request: Request, replyClass: String) throws -> String {
        let checked: Request
        switch Request.decode(line: request.line) {
        case .failure(let e): throw ClientError.refused(e)
        case .success(let r): checked = r
        }
        let line: String
        do {
            line = try executor.reply(to: checked, user: user, seesEveryone: true, context: files)
        } catch let e as ProtocolError {
            throw ClientError.refused(e)
        }
        guard WireCoding.className(of: line) == replyClass else {
            throw ClientError.badReply(ProtocolError(.internal, command: checked.command.rawValue,
                                                     "expected \(replyClass), got \(line.prefix(80).debugDescription)"))
        }
        return line
    }

    func upload(_ data: Data, purpose: UploadRequest.Purpose, progress: ((Int) -> Void)?) throws -> String {
        let id = files.hold(upload: data, purpose: purpose)
        progress?(data.count)
        return id
    }

    func download(id: String, size: Int, progress: ((Int) -> Void)?) throws -> Data {
        guard let data = files.takeDownload(id) else {
            throw ClientError.refused(ProtocolError(.notFound, command: "download", field: "id", "no download \"\(id)\""))
        }
        progress?(data.count)
        return data
    }

    /// No daemon to blame: the refusal's own sentence, with the status its code means.
    func failure(_ error: ClientError) -> CLIError {
        guard case .refused(let e) = error else { return CLIError(error.description, code: ExitStatus(for: error)) }
        return CLIError(e.message, code: ExitStatus(code: e.code, command: e.command))
    }
}

/// The in-process stand-in for the daemon's staging directory: the bytes a request names,
/// kept until a later request takes them.
private final class HeldFiles: StoreRequestContext {
    private var uploads: [String: (purpose: UploadRequest.Purpose, data: Data)] = [:]
    private var downloads: [String: Data] = [:]
    private var issued = 0

    private func nextID(_ prefix: String) -> String {
        issued += 1
        return "\(prefix)\(issued)"
    }

    func hold(upload data: Data, purpose: UploadRequest.Purpose) -> String {
        let id = nextID("u")
        uploads[id] = (purpose, data)
        return id
    }

    func takeDownload(_ id: String) -> Data? { downloads.removeValue(forKey: id) }

    var lastFix: Coordinate? { nil }

    func friendsOnRadar() -> [FriendRadar.FriendState] { [] }

    func takeUpload(_ id: String, purpose: UploadRequest.Purpose, command: String) throws -> Data {
        guard let held = uploads.removeValue(forKey: id), held.purpose == purpose else {
            throw ProtocolError(.notFound, command: command, field: "upload", "no upload \"\(id)\" for \(purpose.rawValue)")
        }
        return held.data
    }

    func stageDownload(_ produce: ((Data) throws -> Void) throws -> Void) throws -> (id: String, size: Int) {
        var data = Data()
        try produce { data.append($0) }
        let id = nextID("d")
        downloads[id] = data
        return (id, data.count)
    }
}

import Foundation
import HotColdConfig
import HotColdProtocol
import Logging

/// What the car is hunting, kept across restarts: the last `hunt` or `roam` a client sent,
/// stored (synced) before it is acknowledged and sent again to the daemon's own handler at the
/// next start. The ignition is the off switch; nobody should set the hunt again every drive.
///
/// Which wins at start: a `--target` or `--roam` flag, then this file, then the
/// configuration's `[tracking]`. The file remembers the `[tracking]` section it was made
/// under: when an administrator has edited that section since, the configuration is the newer
/// wish and wins (and `[tracking] restore = false` turns restoring off).
///
/// The file holds the request as its wire line, so it is read back through the protocol's
/// own decoder: a damaged or hand-edited file is refused like any bad request.
///
/// ```swift
/// let saved = SavedTracking(path: "/var/lib/hotcold/tracking.json", configured: config.tracking, logger: logger)
/// try saved.save(.hunt(HuntRequest(targets: ["GC2T9RW"])), user: "jane")
/// saved.load()    // (.hunt(…), "jane"), unless [tracking] changed since
/// ```
struct SavedTracking: Sendable {
    let path: String
    /// The configuration's tracking section, as a fingerprint.
    let configured: String
    let logger: Logger

    private struct File: Codable {
        /// The `hunt` or `roam` request line.
        var request: String
        /// Whose `roam` it was (its `unseen` and `favourites` are that user's).
        var user: String
        var configured: String
        var saved: Date
    }

    init(path: String, configured: Configuration.Tracking, logger: Logger) {
        self.path = path
        self.configured = Self.fingerprint(configured)
        self.logger = logger
    }

    static func fingerprint(_ t: Configuration.Tracking) -> String {
        "\(t.mode.rawValue) \(t.roamRadius) \(t.roamKinds.joined(separator: ",")) \(t.targets.joined(separator: "\u{1F}"))"
    }

    /// Stores `request` durably; throws (nothing changed yet) when it cannot.
    func save(_ request: Request, user: String) throws(ProtocolError) {
        let command = request.command.rawValue
        let file = File(request: request.line, user: user, configured: configured, saved: Date())
        guard let data = try? WireCoding.encoder().encode(file) else {
            throw ProtocolError(.internal, command: command, "cannot encode the tracking to keep")
        }
        if let problem = DurableFile.write([UInt8](data), to: path) {
            throw ProtocolError(.internal, command: command, "cannot keep the new tracking across a restart, so it is not changed: \(problem)")
        }
    }

    /// The request to restore, or nil (none kept, `[tracking]` edited since, or unreadable).
    func load() -> (request: Request, user: String)? {
        // A FIFO, a link, someone else's file or a huge one is set aside and said, never
        // waited on or dropped in silence.
        let restoredInstead = "starting with the configuration's [tracking]"
        guard let bytes = DurableFile.readAtStart(path, logger: logger, losing: "the kept hunt was not restored",
                                                  then: restoredInstead) else { return nil }
        guard let file = try? WireCoding.decoder().decode(File.self, from: Data(bytes)) else {
            logger.error("the kept hunt was not restored: \(path) is not a kept tracking; \(DurableFile.setAside(path)); \(restoredInstead)")
            return nil
        }
        guard file.configured == configured else {
            logger.info("[tracking] changed since the hunt was last set: starting with the configuration's")
            return nil
        }
        switch Request.decode(line: file.request) {
        case .success(let r) where r.command == .hunt || r.command == .roam:
            return (r, file.user)
        case .success:
            logger.error("the kept hunt was not restored: \(path) holds neither a hunt nor a roam; \(DurableFile.setAside(path)); \(restoredInstead)")
        case .failure(let e):
            logger.error("the kept hunt was not restored: \(path): \(e.message); \(DurableFile.setAside(path)); \(restoredInstead)")
        }
        return nil
    }
}

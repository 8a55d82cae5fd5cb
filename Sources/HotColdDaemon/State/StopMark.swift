import Foundation
import HotColdProtocol
import HotColdUnix
import Logging

/// Tells a clean stop from a power cut, and announces what a cut cost the log.
///
/// A clean stop (SIGTERM: the service group has stopped every service, so the log's writer
/// has written and synced everything) leaves a mark, `clean-stop`, in the state directory; a
/// start removes it (durably) before the first event is numbered. A start that finds no mark
/// after an earlier run (the sequence file exists) follows an unclean stop: every number the
/// last run may have handed out — above the log's last line, up to what it had reserved — may
/// be missing from the log. One `GAP` line in the log says so before any new event, so a
/// `watch` with `since` across it reports `since_gap`, and `status` shows when it happened
/// (`unclean-stop.json`, kept until the next one).
///
/// ```swift
/// let found = StopMark(stateDirectory: "/var/lib/hotcold", logger: logger)
///     .starting(log: eventLog, lastLogged: 41, reservedBefore: 10_040)
/// // … the daemon runs …
/// mark.stopped(lastSeq: sequence.status.last)     // after the services have stopped
/// ```
struct StopMark: Sendable {
    let stateDirectory: String
    let logger: Logger

    var markPath: String { stateDirectory + "/clean-stop" }
    var reportPath: String { stateDirectory + "/unclean-stop.json" }

    /// At start, before the sequence is reserved anew: reads and removes the mark; after an
    /// unclean stop writes the GAP line (synced) and the report. Returns the last unclean
    /// stop known, for `status`.
    func starting(log: EventLog?, lastLogged: Int?, reservedBefore: Int?) -> StatusReply.UncleanStop? {
        // Only whether something is there counts (it is never read): a link is not followed.
        let clean = TrustedFile.exists(markPath)
        if let problem = DurableFile.remove(markPath) {
            logger.error("\(problem): the next start may take an unclean stop for a clean one")
        }
        guard !clean, let reserved = reservedBefore else { return previousReport() }
        let logged = lastLogged ?? 0
        var found = StatusReply.UncleanStop(noticed: Date(), lastLoggedSeq: lastLogged)
        if let log, let attrs = try? FileManager.default.attributesOfItem(atPath: log.path) {
            found.lastLogWrite = attrs[.modificationDate] as? Date
        }
        if reserved > logged {
            found.gapFirstSeq = logged + 1
            found.gapLastSeq = reserved
            let reason = "the daemon did not stop cleanly (power cut or crash): events \(logged + 1)–\(reserved) may have been sent and are not in the log"
            let line = WireCoding.line(GapEvent(seq: reserved, firstSeq: logged + 1, lost: reserved - logged,
                                                reason: reason, time: Date()))
            if let log, log.append(line), log.sync() {
                logger.warning("unclean stop: \(reason); a GAP line in the log says so")
            } else {
                logger.error("unclean stop: \(reason); the GAP line could not be written to the log")
            }
        } else {
            logger.warning("unclean stop: the log holds every event numbered before it")
        }
        if let data = try? WireCoding.encoder().encode(found),
           let problem = DurableFile.write([UInt8](data), to: reportPath) {
            logger.error("unclean stop: \(problem)")
        }
        return found
    }

    /// After a clean stop: the mark, with the last number handed out (for a person reading it).
    func stopped(lastSeq: Int) {
        if let problem = DurableFile.write(Array("\(lastSeq)\n".utf8), to: markPath) {
            logger.error("\(problem): the next start will take this clean stop for a power cut")
        }
    }

    private func previousReport() -> StatusReply.UncleanStop? {
        let forgotten = "the last unclean stop is not shown in status"
        guard let bytes = DurableFile.readAtStart(reportPath, logger: logger, losing: forgotten) else { return nil }
        guard let report = try? WireCoding.decoder().decode(StatusReply.UncleanStop.self, from: Data(bytes)) else {
            logger.error("\(forgotten): \(reportPath) is not an unclean stop's report; \(DurableFile.setAside(reportPath))")
            return nil
        }
        return report
    }
}

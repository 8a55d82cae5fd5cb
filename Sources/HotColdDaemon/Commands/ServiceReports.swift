import Foundation
import HotColdProtocol
import Synchronization

/// The latest `report` from each companion service (hotcold-mqtt, hotcold-sync), for `status`.
///
/// Kept in memory only: a service reports again after the daemon restarts. A report belongs
/// to the connection it came on, so when that closes the service is shown as no longer
/// connected (it stopped or crashed) with what it said last. At most
/// ``ReportRequest/maxServices`` names are kept; a new one past that replaces the oldest
/// report whose connection is gone, else it is refused.
///
/// ```swift
/// let reports = ServiceReports()
/// try reports.record(ReportRequest(service: "hotcold-mqtt", state: "connected", ackedSeq: 12), from: id)
/// reports.closed(id)             // the bridge went away
/// reports.snapshot()             // [StatusReply.Service(service: "hotcold-mqtt", …, connected: false)]
/// ```
final class ServiceReports: Sendable {
    private struct Entry {
        var report: ReportRequest
        var at: Date
        var client: ClientID?
    }

    private let entries = Mutex<[String: Entry]>([:])

    func record(_ r: ReportRequest, from client: ClientID, at now: Date = Date()) throws(ProtocolError) {
        let ok = entries.withLock { e -> Bool in
            if e[r.service] == nil, e.count >= ReportRequest.maxServices {
                guard let gone = e.filter({ $0.value.client == nil }).min(by: { $0.value.at < $1.value.at })?.key else {
                    return false
                }
                e[gone] = nil
            }
            e[r.service] = Entry(report: r, at: now, client: client)
            return true
        }
        guard ok else {
            throw ProtocolError(.quota, command: "report", field: "service",
                                "the daemon already shows \(ReportRequest.maxServices) connected services")
        }
    }

    /// The connection `client` closed: its services are no longer connected.
    func closed(_ client: ClientID) {
        entries.withLock { e in
            for (name, var entry) in e where entry.client == client {
                entry.client = nil
                e[name] = entry
            }
        }
    }

    /// Every service's last report, by name; nil when none ever reported.
    func snapshot() -> [StatusReply.Service]? {
        let all = entries.withLock { $0 }
        guard !all.isEmpty else { return nil }
        return all.sorted { $0.key < $1.key }.map { name, e in
            StatusReply.Service(service: name, state: e.report.state, ackedSeq: e.report.ackedSeq,
                                pending: e.report.pending, detail: e.report.detail,
                                reportedAt: e.at, connected: e.client != nil)
        }
    }
}

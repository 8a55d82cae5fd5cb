#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension StatusReply {
    /// A companion service's last `report` (hotcold-mqtt, hotcold-sync).
    public struct Service: Codable, Sendable, Equatable {
        public var service: String
        public var state: String
        public var ackedSeq: Int?
        public var pending: Int?
        public var detail: String?
        /// When the daemon received the report (wall clock).
        public var reportedAt: Date
        /// False once the connection the report came on has closed: the service stopped or
        /// crashed, and what it said last may no longer hold.
        public var connected: Bool

        public init(service: String, state: String, ackedSeq: Int? = nil, pending: Int? = nil, detail: String? = nil,
                    reportedAt: Date, connected: Bool) {
            self.service = service
            self.state = state
            self.ackedSeq = ackedSeq
            self.pending = pending
            self.detail = detail
            self.reportedAt = reportedAt
            self.connected = connected
        }
    }
}

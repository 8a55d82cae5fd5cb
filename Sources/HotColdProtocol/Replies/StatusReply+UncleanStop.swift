#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension StatusReply {
    /// What a start after an unclean stop found: the ignition cut the power (the ordinary way a
    /// car's box stops), or the daemon was killed. Acknowledged changes and visits survive
    /// such a stop; the log's last moments may not, and the numbers they held are announced
    /// by a `GAP` line. Kept until the next unclean stop.
    public struct UncleanStop: Codable, Sendable, Equatable {
        /// When the start that found it began (this box's clock).
        public var noticed: Date
        /// When the log was last written before the stop (the file's modification time, on
        /// this box's clock), when known: about when the power went.
        public var lastLogWrite: Date?
        /// The last event number the log kept.
        var lastLoggedSeq: Int?
        /// Numbers that may have been given out and are not in the log: the GAP line's range.
        public var gapFirstSeq: Int?
        public var gapLastSeq: Int?

        public init(noticed: Date, lastLogWrite: Date? = nil, lastLoggedSeq: Int? = nil,
                    gapFirstSeq: Int? = nil, gapLastSeq: Int? = nil) {
            self.noticed = noticed
            self.lastLogWrite = lastLogWrite
            self.lastLoggedSeq = lastLoggedSeq
            self.gapFirstSeq = gapFirstSeq
            self.gapLastSeq = gapLastSeq
        }
    }
}

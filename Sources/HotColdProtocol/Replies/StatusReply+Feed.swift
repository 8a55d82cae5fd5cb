#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension StatusReply {
    /// What the feed of finds let go since the daemon started, each item counted (issue 28).
    ///
    /// ```json
    /// "feed":{"dropped":3000,"own_not_kept":0}
    /// ```
    public struct Feed: Codable, Sendable, Equatable {
        /// Items dropped to stay within the feed's caps: a friend's device past its share
        /// (1,000 items), or the oldest received of the largest holder past 10,000 in all.
        public var dropped: Int
        /// This car's own finds not recorded (too many waiting for the database).
        public var ownNotKept: Int

        public init(dropped: Int, ownNotKept: Int) {
            self.dropped = dropped
            self.ownNotKept = ownNotKept
        }
    }
}

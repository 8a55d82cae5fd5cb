#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The reply to `targets`: the tracked targets from `offset`, nearest first, at most the
/// request's `limit`, and how many are tracked in all (so a client knows when it has them all).
public struct TargetsReply: FixedClassMessage, Equatable {
    public static let wireClass = "TARGETS"
    var offset: Int
    var total: Int
    var targets: [StatusReply.TargetState]

    public init(offset: Int, total: Int, targets: [StatusReply.TargetState]) {
        self.offset = offset
        self.total = total
        self.targets = targets
    }
}

/// A named proximity level: 7 `burning` is the hottest of the default ladder, 0 `freezing` the coldest.
public struct Tier: Sendable, Equatable, Hashable {
    public var level: Int
    public var name: String
    /// Distances from this bound (inclusive) up to the next tier's bound belong here.
    public var lowerBound: Double

    public init(level: Int, name: String, lowerBound: Double) {
        self.level = level
        self.name = name
        self.lowerBound = lowerBound
    }
}

/// The ladder of tiers by distance, hottest (nearest) first.
///
/// ```swift
/// TierLadder.default.index(for: 250)   // 1: "hot", 100–300 m
/// ```
public struct TierLadder: Sendable, Equatable {
    /// Hottest first; `tiers[0].lowerBound == 0`, bounds strictly increasing.
    public let tiers: [Tier]
    /// `bounds[i]` is the distance where tier i ends and tier i+1 begins.
    public let bounds: [Double]

    /// Builds a ladder from names (hottest first) and the boundaries between them.
    /// Levels count down from `names.count - 1` to 0.
    public init(names: [String], bounds: [Double]) throws(TierLadderError) {
        guard !names.isEmpty else { throw .empty }
        guard bounds.count == names.count - 1 else {
            throw .boundaryCount(names: names.count, bounds: bounds.count)
        }
        for (i, b) in bounds.enumerated() {
            guard b.isFinite, b > 0 else { throw .notPositive(b) }
            if i > 0, b <= bounds[i - 1] { throw .notIncreasing(bounds[i - 1], b) }
        }
        var t: [Tier] = []
        for (i, n) in names.enumerated() {
            t.append(Tier(level: names.count - 1 - i, name: n, lowerBound: i == 0 ? 0 : bounds[i - 1]))
        }
        self.tiers = t
        self.bounds = bounds
    }

    /// The classic geocaching ladder.
    public static let `default` = try! TierLadder(
        names: ["burning", "hot", "warm", "mild", "cool", "cold", "chilly", "freezing"],
        bounds: [100, 300, 500, 1000, 2000, 5000, 10000])

    /// Index into `tiers` for a distance, without hysteresis.
    @inlinable
    public func index(for distance: Double) -> Int {
        var i = 0
        while i < bounds.count, distance >= bounds[i] { i += 1 }
        return i
    }

    /// The coldest tier (sent when a roaming target leaves range).
    public var coldest: Tier { tiers[tiers.count - 1] }
}

public enum TierLadderError: Error, Equatable, CustomStringConvertible {
    case empty
    case boundaryCount(names: Int, bounds: Int)
    case notPositive(Double)
    case notIncreasing(Double, Double)

    public var description: String {
        switch self {
        case .empty: "the ladder needs at least one tier"
        case .boundaryCount(let n, let b): "\(n) tier names need \(n - 1) boundaries, got \(b)"
        case .notPositive(let b): "boundary \(b) must be a positive number of metres"
        case .notIncreasing(let a, let b): "boundaries must increase, but \(b) follows \(a)"
        }
    }
}

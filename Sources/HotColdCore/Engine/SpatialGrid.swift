import Foundation

/// A fixed grid over latitude/longitude for finding targets near a point among many.
///
/// Cells are `cellDegrees` on a side; a query visits only the cells that its radius can reach,
/// so the cost depends on the local density, not on the number of targets. Built once
/// (sorting by cell), then read-only.
public struct SpatialGrid: Sendable {
    public let cellDegrees: Double
    // Cell key -> range into `order`.
    private var cells: [Int64: Range<Int>] = [:]
    private var order: [Int32] = []
    private let coordinates: [Coordinate]

    public init(coordinates: [Coordinate], cellDegrees: Double = 0.1) {
        self.cellDegrees = cellDegrees
        self.coordinates = coordinates
        var keyed: [(Int64, Int32)] = []
        keyed.reserveCapacity(coordinates.count)
        for (i, c) in coordinates.enumerated() where c.isValid {
            keyed.append((key(c.latitude, c.longitude), Int32(i)))
        }
        keyed.sort { $0.0 < $1.0 || ($0.0 == $1.0 && $0.1 < $1.1) }
        order = keyed.map(\.1)
        var start = 0
        while start < keyed.count {
            var end = start + 1
            while end < keyed.count, keyed[end].0 == keyed[start].0 { end += 1 }
            cells[keyed[start].0] = start..<end
            start = end
        }
    }

    @inline(__always)
    private func row(_ lat: Double) -> Int64 { Int64(((lat + 90) / cellDegrees).rounded(.down)) }
    @inline(__always)
    private func col(_ lon: Double) -> Int64 { Int64(((lon + 180) / cellDegrees).rounded(.down)) }
    @inline(__always)
    private func key(_ lat: Double, _ lon: Double) -> Int64 { key(row: row(lat), col: col(lon)) }
    @inline(__always)
    private func key(row: Int64, col: Int64) -> Int64 { row &* 1_000_003 &+ col }

    /// Indices of the coordinates that may lie within `radius` metres of `centre` (a superset:
    /// the caller measures exactly). Calls `body` once per candidate, in index order per cell.
    public func forEachCandidate(near centre: Coordinate, radius: Double, _ body: (Int) -> Void) {
        // Degrees of latitude/longitude the radius can span (generous: the smallest radius of
        // curvature, and the widest parallel within the band).
        let dLat = radius / 110_574.0 * 1.01
        let maxLat = min(89.9, abs(centre.latitude) + dLat)
        let cosLat = max(cos(maxLat * .pi / 180), 1e-6)
        let dLon = min(180, radius / (111_320.0 * cosLat) * 1.01)
        let r0 = row(max(-90, centre.latitude - dLat)), r1 = row(min(90, centre.latitude + dLat))
        let cellsAcross = Int64((360 / cellDegrees).rounded(.up))
        let c0 = col(centre.longitude - dLon + 360 * (centre.longitude - dLon < -180 ? 1 : 0))
        let span = Int64((2 * dLon / cellDegrees).rounded(.up)) + 1
        for r in r0...r1 {
            var seen = 0 as Int64
            var c = c0
            while seen <= min(span, cellsAcross - 1) {
                if let range = cells[key(row: r, col: c % cellsAcross)] {
                    for k in range { body(Int(order[k])) }
                }
                c += 1
                seen += 1
            }
        }
    }

    public var count: Int { order.count }
}

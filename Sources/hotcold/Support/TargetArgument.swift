import HotColdCore

/// Parses `--target LAT,LON[,NAME]`.
enum TargetArgument {
    static func parse(_ text: String, index: Int) -> Target? {
        let parts = text.split(separator: ",", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, let c = Coordinate(parsing: "\(parts[0]),\(parts[1])") else { return nil }
        let name = parts.count == 3 ? String(parts[2]).trimmingCharacters(in: .whitespaces) : ""
        return Target(id: "target-\(index)", name: name.isEmpty ? "Target \(index)" : name,
                      kind: .point, coordinate: c)
    }
}

import Foundation

import HotColdCore

/// Place kinds in words, for sentences ("a Big Thing", not "a bigthing").
enum KindWords {
    static func noun(_ kind: TargetKind) -> String {
        switch kind {
        case .bigThing: "Big Thing"
        case .geocache: "geocache"
        case .waypoint: "geocache waypoint"
        case .location: "location"
        default: kind.rawValue
        }
    }
}

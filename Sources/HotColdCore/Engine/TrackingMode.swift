/// Which targets the engine follows.
public enum TrackingMode: Sendable, Equatable {
    /// Every target, whatever its distance: the geocache you are after.
    case hunt
    /// Only targets within the radius (metres): a road trip among hundreds of Big Things.
    case roam(radius: Double)
}

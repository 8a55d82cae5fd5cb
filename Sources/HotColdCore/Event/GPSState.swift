/// The receiver's state as events report it. `lost` is the daemon's: gpsd itself went away.
public enum GPSState: String, Sendable, Codable, CaseIterable {
    case fix, nofix, stale, lost
}

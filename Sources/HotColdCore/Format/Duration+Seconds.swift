extension Duration {
    /// The duration in seconds, as a `Double` (what `Date` arithmetic and JSON figures take).
    public var seconds: Double {
        let (s, atto) = components
        return Double(s) + Double(atto) / 1e18
    }
}

/// Short durations for a small screen: ETA and the age of the last fix.
public enum TimeText {
    /// `45 s`, `3 min`, `1 h 12 min`, `2 h`, `>99 h`: whole minutes rounded up from a minute
    /// on. The one ETA format of every client view (the screen, `watch`, `replay --format text`).
    public static func eta(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0 else { return "?" }
        if seconds < 59.5 { return "\(Int(seconds.rounded())) s" }
        if seconds >= 99 * 3600 { return ">99 h" }
        let minutes = Int((seconds / 60).rounded(.up))
        if minutes < 60 { return "\(minutes) min" }
        let m = minutes % 60
        return m == 0 ? "\(minutes / 60) h" : "\(minutes / 60) h \(m) min"
    }

    /// `4s`, `3m`, `2h`, `5d`, `>99d`: how long ago.
    public static func age(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "?" }
        let s = max(0, seconds)
        if s < 60 { return "\(Int(s))s" }
        if s < 3600 { return "\(Int(s / 60))m" }
        if s < 86400 { return "\(Int(s / 3600))h" }
        if s < 100 * 86400 { return "\(Int(s / 86400))d" }
        return ">99d"
    }
}

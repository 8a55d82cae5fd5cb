import Foundation
import Glibc
import HotColdCore

/// Times as people read them: the box's own zone (`TZ`, else /etc/localtime), as `visits` and
/// `show` print them; JSON keeps ISO-8601 UTC. `watch` gives the clock alone (the date is today's).
enum LocalTime {
    /// `14:00:50` in the local zone.
    static func clock(_ date: Date) -> String {
        var t = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        guard localtime_r(&t, &parts) != nil else { return String(ISO8601.format(date).dropFirst(11).prefix(8)) }
        return String(format: "%02d:%02d:%02d", parts.tm_hour, parts.tm_min, parts.tm_sec)
    }
}

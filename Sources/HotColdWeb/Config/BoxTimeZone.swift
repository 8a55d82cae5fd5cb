#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc

/// The box's time zone, which the page shows every time in (`/session`'s `time_zone`), read as
/// Foundation reads it — `TZ` when it names a zone, else where `/etc/localtime` links into
/// zoneinfo — but without asking Foundation, so that `hotcold-web` can then run in GMT.
///
/// Why run in GMT: Hummingbird's `Date` header formatter builds a Gregorian calendar in the
/// current time zone, and for any zone but GMT Foundation resolves it through ICU's zone
/// tables, which puts 1.9 MB of ICU data in the process's memory for a header that is GMT by
/// definition. The page gets the box's zone by name, so nothing it shows changes.
public enum BoxTimeZone {
    /// The IANA name of the box's zone; `GMT` when neither `TZ` nor `/etc/localtime` names one.
    public static func identifier(tz: String? = ProcessInfo.processInfo.environment["TZ"],
                                  localtime: String = "/etc/localtime",
                                  zoneinfo: String = "/usr/share/zoneinfo") -> String {
        if var name = tz, !name.isEmpty {
            if name.hasPrefix(":") { name.removeFirst() }
            if isZoneName(name), access(zoneinfo + "/" + name, R_OK) == 0 { return name }
        }
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink(localtime, &buffer, buffer.count - 1)
        if n > 0 {
            let target = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if let r = target.range(of: "zoneinfo/") {
                let name = String(target[r.upperBound...])
                if isZoneName(name) { return name }
            }
        }
        return "GMT"
    }

    /// Reads the box's zone, then sets the process's `TZ` to GMT (see above); returns the zone.
    /// Call first thing, before any thread starts (`setenv` is not thread-safe).
    public static func pinProcessToGMT() -> String {
        let zone = identifier()
        setenv("TZ", "GMT", 1)
        return zone
    }

    /// An IANA name as zoneinfo holds it: letters, digits, `/`, `_`, `-`, `+`, no `..`.
    static func isZoneName(_ s: String) -> Bool {
        !s.isEmpty && s.count <= 64 && !s.contains("..") && !s.hasPrefix("/")
            && s.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "/_-+".unicodeScalars.contains($0)) }
    }
}

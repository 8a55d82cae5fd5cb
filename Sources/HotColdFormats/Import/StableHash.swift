/// FNV-1a 64-bit: a stable (process-independent, unlike `Hasher`) id for rows that have none.
///
/// ```swift
/// StableHash.hex("bird|Red-tailed Hawk|1497463200")   // 16 hex digits, the same on every run
/// ```
enum StableHash {
    public static func hex(_ text: String) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in text.utf8 {
            h ^= UInt64(b)
            h = h &* 0x100_0000_01b3
        }
        let s = String(h, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }
}

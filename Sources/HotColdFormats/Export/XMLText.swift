/// Escapes text for XML content and attributes. Characters XML 1.0 forbids are dropped, and
/// carriage returns are written as `&#13;` because parsers would otherwise turn CR LF into LF
/// and an export would not read back as the same text.
package enum XMLText {
    package static func escape(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for u in s.unicodeScalars {
            switch u {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\r": out += "&#13;"
            case "\t", "\n": out.unicodeScalars.append(u)
            default:
                let v = u.value
                if v < 0x20 || (0xFFFE...0xFFFF).contains(v) { continue }
                out.unicodeScalars.append(u)
            }
        }
        return out
    }
}

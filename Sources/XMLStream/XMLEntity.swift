/// XML's five predefined entities and character references (`&#228;`, `&#xE4;`): the only ones a
/// GPX file can use, since the scanner reads no DTD.
enum XMLEntity {
    /// The UTF-8 bytes `&name;` stands for, or a reason it stands for nothing.
    static func decode(_ name: ArraySlice<UInt8>) -> Result<[UInt8], XMLScanner.Problem> {
        switch String(decoding: name, as: UTF8.self) {
        case "lt": return .success([0x3C])
        case "gt": return .success([0x3E])
        case "amp": return .success([0x26])
        case "apos": return .success([0x27])
        case "quot": return .success([0x22])
        default: break
        }
        guard name.first == 0x23 else {
            return .failure(.init("an entity that is not defined (&\(XMLScanner.string(name));); write &amp; for '&'"))
        }
        var digits = name.dropFirst()
        var radix: UInt32 = 10
        if digits.first == 0x78 { radix = 16; digits = digits.dropFirst() }
        var value: UInt32 = 0
        for d in digits {
            let v: UInt32
            switch d {
            case 0x30...0x39: v = UInt32(d - 0x30)
            case 0x61...0x66 where radix == 16: v = UInt32(d - 0x61 + 10)
            case 0x41...0x46 where radix == 16: v = UInt32(d - 0x41 + 10)
            default: return .failure(.init("a character reference that is not a number (&\(XMLScanner.string(name));)"))
            }
            // Past 0x10FFFF nothing is a character; stop before the arithmetic could overflow.
            guard value <= 0x10FFFF else { break }
            value = value * radix + v
        }
        guard !digits.isEmpty, value != 0, value <= 0x10FFFF, let scalar = Unicode.Scalar(value) else {
            return .failure(.init("a character reference to no character (&\(XMLScanner.string(name));)"))
        }
        return .success(Array(String(Character(scalar)).utf8))
    }

    /// `raw` with its entities replaced (attribute values; text is decoded as it is scanned).
    static func decodeAll(_ raw: ArraySlice<UInt8>) -> Result<[UInt8], XMLScanner.Problem> {
        guard raw.contains(0x26) else { return .success(Array(raw)) }
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var i = raw.startIndex
        while i < raw.endIndex {
            let c = raw[i]
            guard c == 0x26 else { out.append(c); i += 1; continue }
            guard let semicolon = raw[i...].prefix(XMLScanner.maximumEntityLength + 2).firstIndex(of: 0x3B) else {
                return .failure(.init("an '&' that does not start an entity (write &amp;)"))
            }
            switch decode(raw[(i + 1)..<semicolon]) {
            case .success(let bytes): out += bytes
            case .failure(let p): return .failure(p)
            }
            i = semicolon + 1
        }
        return .success(out)
    }
}

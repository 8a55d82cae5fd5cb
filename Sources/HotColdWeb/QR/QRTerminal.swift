/// A QR code as terminal text: two modules per character (upper and lower half blocks), a
/// quiet zone of four modules, dark modules drawn as dark on a light terminal and inverted
/// for a dark one (scanners read both; `inverted` is the usual terminal: light text on dark).
public enum QRTerminal {
    public static func lines(_ qr: QRCode, inverted: Bool = true) -> [String] {
        let quiet = 4
        let span = qr.size + 2 * quiet
        func dark(_ x: Int, _ y: Int) -> Bool {
            let d = qr.isDark(x: x - quiet, y: y - quiet)
            return inverted ? !d : d
        }
        var out: [String] = []
        for y in stride(from: 0, to: span, by: 2) {
            var line = ""
            for x in 0..<span {
                let top = dark(x, y), bottom = y + 1 < span ? dark(x, y + 1) : inverted
                switch (top, bottom) {
                case (true, true): line += "█"
                case (true, false): line += "▀"
                case (false, true): line += "▄"
                case (false, false): line += " "
                }
            }
            out.append(line)
        }
        return out
    }
}

import Foundation
import HotColdTestSupport
import HotColdDaemonTesting
import Testing
@testable import HotColdWeb

@Suite("QR codes for pairing links", .offCooperativePool)
struct QRCodeTests {
    /// Draws the code as a PBM image (4 px a module, the 4-module quiet zone) for a decoder.
    static func pbm(_ qr: QRCode, scale: Int = 4) -> String {
        let quiet = 4, side = (qr.size + 2 * quiet) * scale
        var rows: [String] = ["P1", "\(side) \(side)"]
        for y in 0..<side {
            var row = ""
            for x in 0..<side {
                row += qr.isDark(x: x / scale - quiet, y: y / scale - quiet) ? "1 " : "0 "
            }
            rows.append(row)
        }
        return rows.joined(separator: "\n") + "\n"
    }

    static let zbarimg = "/usr/bin/zbarimg"

    @Test("an independent decoder (zbar) reads back what was encoded, at every version used",
          .enabled(if: FileManager.default.isExecutableFile(atPath: zbarimg)),
          arguments: [1, 14, 40, 75, 100, 150, 229])
    func zbarReadsItBack(length: Int) throws {
        let base = "http://10.42.0.1:8470/pair?t="
        let text = String((base + String(repeating: "aB3-_x9Z", count: 40)).prefix(length))
        let qr = try QRCode(text: text)
        let dir = try TemporaryDirectory("qr")
        defer { dir.remove() }
        let file = dir.path("code.pbm")
        try Self.pbm(qr).write(toFile: file, atomically: true, encoding: .ascii)
        let r = try Subprocess.run(URL(fileURLWithPath: Self.zbarimg), ["--raw", "-q", file])
        #expect(r.status == 0, "zbarimg: \(r.stderr)")
        #expect(r.stdout.trimmingCharacters(in: .newlines) == text, "version \(qr.version), mask \(qr.mask)")
    }

    @Test("the smallest version that holds the text is chosen; too long a text is refused")
    func versions() throws {
        #expect(try QRCode(text: String(repeating: "x", count: 17)).version == 1)
        #expect(try QRCode(text: String(repeating: "x", count: 18)).version == 2)
        #expect(try QRCode(text: String(repeating: "x", count: 78)).version == 4)
        #expect(try QRCode(text: String(repeating: "x", count: 230)).version == 9)
        #expect(throws: QRCode.Failure.tooLong(bytes: 231, maximum: 230)) { try QRCode(text: String(repeating: "x", count: 231)) }
        // A pairing link (43-character token) fits version 5 or below: 37 modules, 23 terminal rows.
        let link = try QRCode(text: "http://192.168.100.200:8470/pair?t=" + String(repeating: "A", count: 43))
        #expect(link.version <= 5)
        #expect(QRTerminal.lines(link).count == (link.size + 8 + 1) / 2)
    }

    @Test("finder patterns sit in three corners and the dark module is set")
    func functionPatterns() throws {
        let qr = try QRCode(text: "hotcold")
        for (ox, oy) in [(0, 0), (qr.size - 7, 0), (0, qr.size - 7)] {
            for i in 0..<7 {
                #expect(qr.isDark(x: ox + i, y: oy) && qr.isDark(x: ox, y: oy + i))
            }
            #expect(!qr.isDark(x: ox + 1, y: oy + 1))
            #expect(qr.isDark(x: ox + 3, y: oy + 3))
        }
        #expect(qr.isDark(x: 8, y: qr.size - 8))
    }

    @Test("Reed–Solomon: the codewords of a known block (ISO 18004 annex I, 1-M \"01234567\")")
    func reedSolomon() {
        let data: [UInt8] = [16, 32, 12, 86, 97, 128, 236, 17, 236, 17, 236, 17, 236, 17, 236, 17]
        #expect(GaloisField.errorCorrection(data, count: 10) == [165, 36, 212, 193, 237, 54, 199, 135, 44, 85])
    }
}

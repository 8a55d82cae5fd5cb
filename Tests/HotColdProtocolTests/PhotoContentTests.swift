import Foundation
@testable import HotColdProtocol
import HotColdTestSupport
import HotColdDaemonTesting
import Testing

/// A photo's first bytes against the type it is declared as: real images of every accepted
/// type pass as themselves; a program, a web page and anything else named an image are
/// refused with a sentence naming the declared type and what the content is.
@Suite(.offCooperativePool) struct PhotoContentTests {
    static func photo(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: TestData.repo("Tests/Photos/" + name)))
    }

    static let real: [(file: String, type: String)] = [
        ("wombat.jpg", "image/jpeg"), ("wombat.png", "image/png"), ("wombat.webp", "image/webp"),
        ("wombat.heic", "image/heic"), ("wombat.avif", "image/avif"),
    ]

    @Test("real JPEG, PNG, WebP, HEIC and AVIF files pass as what they are, and as nothing else")
    func realImages() throws {
        for (file, type) in Self.real {
            let bytes = try Self.photo(file)
            #expect(PhotoContent.refusal(head: bytes.prefix(PhotoContent.headLength), declared: type) == nil, "\(file)")
            // The whole file is as good as its head.
            #expect(PhotoContent.refusal(head: bytes, declared: type) == nil, "\(file)")
            for (_, other) in Self.real where other != type {
                let refusal = PhotoContent.refusal(head: bytes, declared: other)
                #expect(refusal?.contains("declared \(other)") == true, "\(file) as \(other): \(refusal ?? "passed")")
            }
        }
        // HEIC is HEIF: a phone may call it either.
        #expect(PhotoContent.refusal(head: try Self.photo("wombat.heic"), declared: "image/heif") == nil)
    }

    @Test("an ELF program as image/webp is refused, naming both")
    func elfAsWebP() throws {
        let elf = Array(try Data(contentsOf: URL(fileURLWithPath: "/bin/true")).prefix(4096))
        let refusal = try #require(PhotoContent.refusal(head: elf, declared: "image/webp"))
        #expect(refusal == "the photo is declared image/webp, but its content is an ELF executable (it starts 7F 45 4C 46 …)")
    }

    @Test("a web page as image/jpeg is refused, naming both")
    func htmlAsJPEG() throws {
        let page = Array("<!DOCTYPE html>\n<html><head><title>Big Wombat</title></head><body>not a photo</body></html>\n".utf8)
        let refusal = try #require(PhotoContent.refusal(head: page, declared: "image/jpeg"))
        #expect(refusal == "the photo is declared image/jpeg, but its content is HTML (it starts 3C 21 44 4F …)")
        // With a byte-order mark and leading blank lines too.
        let padded = [0xEF, 0xBB, 0xBF, 0x0A, 0x20] + Array("<html lang=en>".utf8)
        #expect(PhotoContent.refusal(head: padded, declared: "image/png")?.contains("is HTML") == true)
    }

    @Test("a type that is no photo's is refused whatever the content, naming the types taken")
    func anyOtherType() throws {
        let jpeg = try Self.photo("wombat.jpg")
        for type in ["application/octet-stream", "text/html", "image/svg+xml", "image/tiff", "", "IMAGE/JPEG"] {
            let refusal = PhotoContent.refusal(head: jpeg, declared: type)
            #expect(refusal == "a photo is one of image/jpeg, image/png, image/webp, image/gif, image/heic, image/heif, image/avif, not \(type)",
                    "\(type): \(refusal ?? "passed")")
        }
    }

    @Test("other contents are named for what they are; short and empty ones too")
    func descriptions() {
        func said(_ bytes: [UInt8]) -> String { PhotoContent.refusal(head: bytes, declared: "image/jpeg") ?? "passed" }
        #expect(said(Array("%PDF-1.7\n".utf8)).contains("a PDF document"))
        #expect(said([0x50, 0x4B, 0x03, 0x04, 0x14]).contains("a ZIP archive"))
        #expect(said(Array("#!/bin/sh\nrm -rf /\n".utf8)).contains("a script"))
        #expect(said(Array("RIFF\u{0}\u{0}\u{0}\u{0}WAVEfmt ".utf8)).contains("a RIFF file that is not WebP"))
        #expect(said(Array("just some words".utf8)).contains("is text"))
        #expect(said([0xFF, 0xD8]).contains("not an image this box knows"), "two bytes are not a JPEG's signature")
        #expect(said([]) == "the photo is declared image/jpeg, but its content is empty")
        // A PNG's signature cut short is no PNG.
        #expect(PhotoContent.refusal(head: [0x89, 0x50, 0x4E, 0x47], declared: "image/png") != nil)
        // An ISO media file of another brand (an MP4 video) is not a HEIC.
        let mp4: [UInt8] = [0, 0, 0, 0x18] + Array("ftypmp42".utf8) + [0, 0, 0, 0] + Array("isommp42".utf8)
        #expect(PhotoContent.refusal(head: mp4, declared: "image/heic")?.contains("brand \"mp42\"") == true)
    }
}

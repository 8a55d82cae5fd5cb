import Foundation
@testable import HotColdProtocol
import HotColdTestSupport
import HotColdDaemonTesting
import Testing
@testable import HotColdWeb

/// A name's length is counted one way, in Unicode code points (as the schema's maxLength
/// counts), by the daemon's decoder and by hotcold-web alike; a refusal names that count.
@Suite("one count for a name's length", .offCooperativePool)
struct TextLengthTests {
    /// An emoji family: 7 code points (four people joined by three zero-width joiners), 25 bytes.
    static let family = "👨\u{200D}👩\u{200D}👧\u{200D}👦"

    @Test("150 emoji families are 1,050 code points: refused as 1,050, never as 'at most 200 characters, got 150'; 200 single-code-point emoji fit")
    func emojiCountedOneWay() throws {
        let name = String(repeating: Self.family, count: 150)
        #expect(name.count == 150 && Limits.length(of: name) == 1050)
        guard case .failure(let e) = Request.decode(line: #"{"cmd":"store","op":"rename","id":"x","name":"\#(name)"}"#) else {
            Issue.record("150 families accepted as a name"); return
        }
        #expect(e.code == .tooLarge && e.field == "name")
        #expect(e.message.contains("at most 200 characters, got 1050") && !e.message.contains("got 150"), "\(e.message)")
        let bananas = String(repeating: "🍌", count: 200)
        #expect((try? Request.decode(line: #"{"cmd":"store","op":"rename","id":"x","name":"\#(bananas)"}"#).get()) != nil, "200 code points fit")
        #expect(Limits.fits(bananas, max: 200) && !Limits.fits(bananas + "🍌", max: 200))
        // Shortening for the daemon keeps whole characters within the count.
        let cut = Limits.prefix(name, max: 200)
        #expect(Limits.length(of: cut) == 196 && cut.count == 28 && Limits.fits(cut, max: 200))
        #expect(Limits.prefix("abc", max: 200) == "abc")
    }

    @Test("the page's write of a 150-family name is refused by the count the daemon states; 200 bananas are written")
    func throughThePage() async throws {
        let r = try await WebServerTests.Running()
        defer { r.stop() }
        let d = try r.server.store.pair(name: "phone", uid: 0, user: "root", writer: true, days: 1)
        let headers = ["Content-Type: application/json", "Cookie: hc_token=\(d.token)", "Origin: http://127.0.0.1:\(r.port)"]
        let long = String(repeating: Self.family, count: 150)
        let refused = try await RawHTTP.post(r.port, "/api/command", body: #"{"cmd":"store","op":"add","name":"\#(long)","lat":-30.3,"lon":153.1}"#,
                                             headers: headers)
        #expect(refused.status == 400 && refused.body.contains("got 1050") && !refused.body.contains("got 150"), "\(refused.status) \(refused.body.prefix(300))")
        let fits = String(repeating: "🍌", count: 200)
        let ok = try await RawHTTP.post(r.port, "/api/command", body: #"{"cmd":"store","op":"add","name":"\#(fits)","lat":-30.3,"lon":153.1}"#,
                                        headers: headers)
        #expect(ok.status == 200, "\(ok.status) \(ok.body.prefix(300))")
    }
}

import Foundation
import HotColdCore
@testable import HotColdProtocol
import HotColdDaemonTesting
import Testing

/// Issue 30: a line's class is read from its `{"class":"NAME"` prefix without parsing the line;
/// whatever does not start that way is parsed whole, so the answer is the parse's.
@Suite(.offCooperativePool) struct WireClassNameTests {
    static let t = ISO8601.parse("2026-11-25T10:00:00.000Z")!

    @Test func everyLineThisProtocolWritesIsReadByItsPrefixAsTheParseReadsIt() {
        let lines = [
            ProtocolVersion.greeting,
            WireCoding.line(ErrorReply(ProtocolError(.notAllowed, command: "hunt", "no"))),
            WireCoding.line(RecordEvent(seq: 9, time: Self.t, user: "jane", place: .init(id: "a", name: "A \"quoted\"", kind: "bigthing"), rating: 0)),
            WireCoding.line(ActingReply(uid: 1000, user: "jane", writer: true)),
            WireCoding.line(WebRevokedReply(count: 0)),
            WireCoding.line(OKReply(cmd: "like")),
        ]
        for line in lines {
            let fast = WireCoding.leadingClassName(line.utf8)
            #expect(fast != nil, "\(line)")
            #expect(fast == WireCoding.classNameByParsing(of: line), "\(line)")
            #expect(WireCoding.className(of: line) == fast)
        }
    }

    @Test func anythingElseIsParsedWhole() {
        // Another key order, an escape in the name, spaces: the parse decides.
        #expect(WireCoding.leadingClassName(#"{"seq":1,"class":"GAP"}"#.utf8) == nil)
        #expect(WireCoding.className(of: #"{"seq":1,"class":"GAP"}"#) == "GAP")
        #expect(WireCoding.leadingClassName(#"{"class":"A\u0042"}"#.utf8) == nil)
        #expect(WireCoding.className(of: #"{"class":"A\u0042"}"#) == "AB")
        #expect(WireCoding.className(of: #"{ "class" : "STATUS" }"#) == "STATUS")
        // Not an object with a class at all.
        for bad in [#"{"class":"X""#, "[1]", "", #"{"class":"#, "not json", #"{"class":12}"#] {
            #expect(WireCoding.className(of: bad) == nil, "\(bad)")
        }
        // A name is letters, digits and _ only, and short; a longer or odder one is parsed.
        let long = String(repeating: "A", count: 80)
        #expect(WireCoding.leadingClassName(#"{"class":"\#(long)"}"#.utf8) == nil)
        #expect(WireCoding.className(of: #"{"class":"\#(long)"}"#) == long)
    }
}

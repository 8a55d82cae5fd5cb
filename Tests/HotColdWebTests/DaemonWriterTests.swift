import HotColdProtocol
import HotColdDaemonTesting
import Testing
@testable import HotColdWeb

/// Which of the daemon's requests the page may forward, and as what: the writer's table.
@Suite("the requests the page may send", .offCooperativePool)
struct DaemonWriterTests {
    let writer = DaemonWriter(socketPath: "/nonexistent")

    func passes(_ line: String, _ kind: DaemonWriter.Kind) -> String? {
        if case .success(let (_, cls)) = writer.validate(line, kind: kind) { return cls }
        return nil
    }

    @Test("the later screens' writes pass as writes only, each expecting its reply class")
    func screenWrites() {
        let writes = [
            (#"{"cmd":"store","op":"rename","id":"location:custom-1a2f5f54","name":"Gate"}"#, "STORE"),
            (#"{"cmd":"store","op":"delete","id":"location:custom-1a2f5f54"}"#, "STORE"),
            (#"{"cmd":"store","op":"observe","classification":"bird","title":"Kookaburra","date":"2026-11-25T10:00:00Z","lat":-30.3,"lon":153.1}"#, "STORE"),
            (#"{"cmd":"like","item":"jane/ute/1234"}"#, "RESULT"),
            (#"{"cmd":"unlike","item":"jane/ute/1234"}"#, "RESULT"),
            (#"{"cmd":"follow","who":"jane/ute"}"#, "RESULT"),
            (#"{"cmd":"unfollow","who":"jane/ute"}"#, "RESULT"),
            (#"{"cmd":"submit","name":"Big Wombat","lat":-35.28,"lon":149.13,"seen_at":"2024-05-01T10:00:00Z"}"#, "SUBMIT"),
        ]
        for (line, cls) in writes {
            #expect(passes(line, .write) == cls, "\(line)")
            #expect(passes(line, .read) == nil, "a write never passes as a read: \(line)")
        }
    }

    @Test("the later screens' reads pass as reads only; every user's follows do not")
    func screenReads() {
        for (line, cls) in [(#"{"cmd":"feed","limit":50}"#, "FEED"), (#"{"cmd":"following"}"#, "FOLLOWING"), (#"{"cmd":"observations"}"#, "OBSERVATIONS")] {
            #expect(passes(line, .read) == cls, "\(line)")
            #expect(passes(line, .write) == nil, "\(line)")
        }
        #expect(passes(#"{"cmd":"following","all":true}"#, .read) == nil)
    }

    @Test("never the bridge's commands, uploads, imports, sync, report, or a submit naming an upload")
    func refused() {
        for line in [
            #"{"cmd":"friend_fix","who":"jane/ute","time":"2026-11-25T10:00:00Z","lat":-30.1,"lon":153.1}"#,
            #"{"cmd":"feed_item","item":{"author":"jane","device":"ute","seq":1,"time":"2026-11-25T10:00:00Z","kind":"arrived","place":{"id":"x","name":"X","kind":"bigthing"}}}"#,
            #"{"cmd":"like_received","item_seq":1,"liker":"bob/car","like":true,"time":"2026-11-25T10:03:00Z"}"#,
            #"{"cmd":"upload","purpose":"photo","size":10}"#,
            #"{"cmd":"chunk","upload":"u1","offset":0,"data":"AAAA"}"#,
            #"{"cmd":"import","upload":"u1","name":"a.gpx"}"#,
            #"{"cmd":"submit","name":"X","lat":1,"lon":1,"seen_at":"2026-11-25T10:00:00Z","photo":{"upload":"u1","filename":"a.jpg","content_type":"image/jpeg"}}"#,
            #"{"cmd":"outbox"}"#, #"{"cmd":"visits"}"#, #"{"cmd":"status"}"#,
        ] {
            // A real request the daemon would take, refused by the page's table, not by a typo.
            #expect((try? Request.decode(line: line).get()) != nil, "decodes: \(line)")
            #expect(passes(line, .write) == nil && passes(line, .read) == nil, "\(line)")
        }
    }
}

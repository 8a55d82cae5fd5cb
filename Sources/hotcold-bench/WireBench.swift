import Foundation
import HotColdCore
import HotColdProtocol

/// What reading a line's class costs: by its `{"class":"NAME"` prefix (``WireCoding/className(of:)``)
/// and by a full parse (the way before), on the lines a subscriber sees most.
func benchWire() {
    let t = ISO8601.parse("2026-11-25T10:00:00.000Z")!
    let lines = [
        #"{"class":"PROXIMITY","seq":1234,"time":"2026-11-25T10:00:00.000Z","target":{"id":"halans:d0577fb8cf","name":"Big Banana","kind":"bigthing"},"distance_m":1234.5,"bearing_deg":271.2,"tier":3,"tier_name":"warm","trend":"hotter"}"#,
        WireCoding.line(RecordEvent(seq: 9, time: t, user: "jane", place: .init(id: "halans:d0577fb8cf", name: "Big Banana", kind: "bigthing"),
                                    rating: 4, note: String(repeating: "Best milkshake on the coast. ", count: 10))),
        WireCoding.line(ErrorReply(ProtocolError(.notAllowed, command: "hunt", "not allowed"))),
    ]
    let n = 200_000
    for line in lines {
        let name = WireCoding.className(of: line) ?? "?"
        var sink = 0
        let fast = medianTimes(runs: 5) { for _ in 0..<n { sink &+= WireCoding.className(of: line)?.utf8.count ?? 0 } }.cpu
        let slow = medianTimes(runs: 5) { for _ in 0..<(n / 20) { sink &+= WireCoding.classNameByParsing(of: line)?.utf8.count ?? 0 } }.cpu * 20
        print(String(format: "wire: class of a %@ line (%d bytes): prefix %.0f ns, full parse %.0f ns (%.0fx)%@",
                     name, line.utf8.count, fast / Double(n) * 1e9, slow / Double(n) * 1e9, slow / fast, sink == 0 ? "!" : ""))
    }
}

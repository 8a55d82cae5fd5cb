// What clients read from the daemon's socket: lines of events and STATUS replies, as the
// full-screen view (HotColdScreen) and the MQTT bridge (HotColdMQTT) take them. The socket is a
// trust boundary for them too: a stale, newer or impostor daemon must not crash a client.
//
// Invariants: nothing traps; every rendered screen line fits its width in cells and carries no
// control character but the renderer's own SGR escapes; the bridge's publications for an
// accepted event or status have a topic with no wildcard and a payload that is valid JSON.
import Foundation
import FuzzSupport
import HotColdCore
import HotColdMQTT
import HotColdProtocol
import HotColdScreen

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    fuzz(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

let topics = Topics(prefix: "hotcold", user: "u", device: "d")
let start = Date(timeIntervalSince1970: 1_735_689_600)

func fuzz(_ bytes: UnsafeRawBufferPointer) {
    let text = String(decoding: bytes, as: UTF8.self)
    var model = ScreenModel(socketPath: "/fuzz.sock", now: start)
    for line in text.split(separator: "\n", omittingEmptySubsequences: true).prefix(16) {
        if let status = try? WireCoding.decode(StatusReply.self, from: line) {
            model.apply(status)
            if let snapshot = try? StatusReply(bridgeLine: String(line)) {
                checkPublication(HotColdLayout.state(snapshot, seq: 1, topics: topics))
                if let p = OwnTracksLayout.location(snapshot, tid: "d", topics: topics) { checkPublication(p) }
                if let p = HotColdLayout.location(snapshot, topics: topics) { checkPublication(p) }
                checkPublication(HotColdLayout.nearest(snapshot, topics: topics))
                // The phone's regions at the targets' own coordinates (protocol 1.9).
                let places = snapshot.targets.compactMap { t in
                    t.coordinate.map { PhoneRegions.Place(id: t.target.id, name: t.target.name, at: $0, distance: t.distanceM) }
                }
                let waypoints = places.enumerated().map { OwnTracksLayout.waypoint($1, radius: 100, tst: 1_735_689_600 - $0) }
                checkPublication(OwnTracksLayout.setWaypoints(waypoints, phoneTopic: "owntracks/u/phone"))
                for p in places {
                    fuzzCheck(Coordinate(latitude: p.lat, longitude: p.lon).isValid, "target coordinate \(p.lat),\(p.lon) from \(line)")
                }
            }
        }
        if let event = try? EventMessage.decode(line: line) { model.apply(event.event) }
        if let e = try? EventMessage(bridgeLine: String(line)) {
            HotColdLayout.publications(for: e, topics: topics).forEach(checkPublication)
            if let p = OwnTracksLayout.transition(e, waypoint: nil, accuracy: 9.5, tid: "d", wtst: 1_735_689_600, topics: topics) { checkPublication(p) }
        }
    }
    for (w, h) in [(1, 1), (20, 6), (40, 12), (80, 24)] {
        for style in [ScreenStyle.colour, .plain] {
            for l in ScreenRenderer.lines(model, width: w, height: h, style: style) {
                fuzzCheck(l.width <= w, "a line of \(l.width) cells on a screen \(w) wide: \(l.plainText.debugDescription)")
                fuzzCheck(!l.plainText.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) },
                          "a control character reaches the terminal: \(l.plainText.debugDescription)")
            }
        }
    }
}

func checkPublication(_ p: Publication) {
    fuzzCheck(!p.topic.isEmpty && !p.topic.contains("+") && !p.topic.contains("#"), "topic \(p.topic)")
    if !p.payload.isEmpty {
        fuzzCheck((try? JSONSerialization.jsonObject(with: Data(p.payload.utf8), options: [.fragmentsAllowed])) != nil,
                  "payload is not JSON: \(p.payload)")
    }
}

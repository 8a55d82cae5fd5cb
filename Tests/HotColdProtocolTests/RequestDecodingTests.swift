import Foundation
import HotColdCore
@testable import HotColdProtocol
import HotColdDaemonTesting
import Testing

/// Every field is checked while decoding: type, range, size; every refusal names its code,
/// command and field.
@Suite(.offCooperativePool) struct RequestDecodingTests {
    func error(_ line: String) -> ProtocolError? {
        if case .failure(let e) = Request.decode(line: line) { return e }
        return nil
    }

    func request(_ line: String) throws -> Request {
        try Request.decode(line: line).get()
    }

    @Test func radiusTrapsAreErrors() {
        for line in [#"{"cmd":"roam","radius":1e19}"#, #"{"cmd":"roam","radius":"1e306km"}"#,
                     #"{"cmd":"roam","radius":20000001}"#, #"{"cmd":"roam","radius":"20001km"}"#,
                     #"{"cmd":"roam","radius":0}"#, #"{"cmd":"roam","radius":-5}"#, #"{"cmd":"roam","radius":"-1km"}"#] {
            let e = error(line)
            #expect(e?.code == .outOfRange, "\(line)")
            #expect(e?.command == "roam" && e?.field == "radius", "\(line)")
        }
        // Past Double's range: refused as a bad number (swift-foundation reads it, then cannot).
        #expect(error(#"{"cmd":"roam","radius":1e400}"#)?.field == "radius")
        #expect(error(#"{"cmd":"roam","radius":"far"}"#)?.code == .badField)
        #expect(error(#"{"cmd":"roam","radius":true}"#)?.code == .badField)
    }

    @Test func radiusUnitsAndEdges() throws {
        #expect(try request(#"{"cmd":"roam","radius":"20000km"}"#) == .roam(RoamRequest(radius: 20_000_000)))
        #expect(try request(#"{"cmd":"roam","radius":"850m"}"#) == .roam(RoamRequest(radius: 850)))
        #expect(try request(#"{"cmd":"roam"}"#) == .roam(RoamRequest()))
        let r = try request(#"{"cmd":"roam","radius":2.5,"kinds":["GEOCACHE","geocache","bigthing"],"unseen":true}"#)
        #expect(r == .roam(RoamRequest(radius: 2.5, kinds: ["geocache", "bigthing"], unseen: true)))
        #expect(error(#"{"cmd":"roam","kinds":["castle"]}"#)?.field == "kinds")
        #expect(error(#"{"cmd":"roam","kinds":[]}"#)?.code == .badField)
    }

    @Test func starsAreWholeNumbersFromZeroToFive() throws {
        #expect(try request(#"{"cmd":"store","op":"rate","id":"x","stars":4}"#) == .store(StoreRequest(.rate(id: "x", stars: 4))))
        #expect(try request(#"{"cmd":"store","op":"rate","id":"x","stars":5.0}"#) == .store(StoreRequest(.rate(id: "x", stars: 5))))
        for bad in ["4.5", "6", "-1", "1e19", "\"4\"", "null", "true"] {
            let e = error(#"{"cmd":"store","op":"rate","id":"x","stars":"# + bad + "}")
            #expect(e != nil && e?.field == "stars" && e?.command == "store rate", "\(bad)")
        }
        #expect(error(#"{"cmd":"store","op":"rate","id":"x"}"#)?.message.contains("missing") == true)
    }

    @Test func coordinatesAreInRange() throws {
        #expect(error(#"{"cmd":"store","op":"add","name":"a","lat":90.5,"lon":0}"#)?.code == .outOfRange)
        #expect(error(#"{"cmd":"store","op":"add","name":"a","lat":0,"lon":-180.01}"#)?.field == "lon")
        #expect(error(#"{"cmd":"store","op":"add","name":"a","lat":0}"#)?.field == "lon")
        #expect(error(#"{"cmd":"near","lon":3}"#)?.field == "lat")
        #expect(try request(#"{"cmd":"store","op":"add","name":"a","lat":-90,"lon":180}"#)
                == .store(StoreRequest(.add(name: "a", at: Coordinate(latitude: -90, longitude: 180)))))
    }

    @Test func stringCaps() throws {
        let note500 = String(repeating: "é", count: 500)
        #expect(try request(#"{"cmd":"store","op":"note","id":"x","text":"\#(note500)"}"#) == .store(StoreRequest(.note(id: "x", text: note500))))
        #expect(error(#"{"cmd":"store","op":"note","id":"x","text":"\#(note500)a"}"#)?.code == .tooLarge)
        #expect(try request(#"{"cmd":"store","op":"note","id":"x","text":""}"#) == .store(StoreRequest(.note(id: "x", text: ""))))
        let name = String(repeating: "n", count: 201)
        #expect(error(#"{"cmd":"store","op":"rename","id":"x","name":"\#(name)"}"#)?.field == "name")
        let id = String(repeating: "i", count: 101)
        #expect(error(#"{"cmd":"place","id":"\#(id)"}"#)?.code == .tooLarge)
        #expect(error(#"{"cmd":"place","id":""}"#)?.code == .badField)
        #expect(error(#"{"cmd":"search","text":"\#(name)"}"#)?.code == .tooLarge)
    }

    @Test func listCaps() throws {
        let targets = (0..<1000).map { "\"p\($0)\"" }.joined(separator: ",")
        if case .hunt(let h) = try request(#"{"cmd":"hunt","targets":[\#(targets)]}"#) { #expect(h.targets.count == 1000) } else { Issue.record("not a hunt") }
        #expect(error(#"{"cmd":"hunt","targets":[\#(targets),"one more"]}"#)?.code == .tooLarge)
        #expect(error(#"{"cmd":"hunt","targets":[]}"#)?.field == "targets")
        #expect(error(#"{"cmd":"hunt","targets":[1,2]}"#)?.code == .badField)
        let huge = Array(repeating: "\"t\"", count: 8000).joined(separator: ",")
        #expect(error(#"{"cmd":"watch","targets":[\#(huge)]}"#)?.code == .tooLarge)
        #expect(error(#"{"cmd":"watch","classes":["PROXIMITY","NOISE"]}"#)?.message.contains("NOISE") == true)
        #expect(try request(#"{"cmd":"watch","classes":"arrived","since":42}"#) == .watch(WatchRequest(classes: ["ARRIVED"], since: 42)))
        #expect(error(#"{"cmd":"search","limit":1001}"#)?.code == .outOfRange)
        #expect(error(#"{"cmd":"near","limit":0}"#)?.code == .outOfRange)
    }

    @Test func nestingIsBounded() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(error(#"{"cmd":"watch","targets":\#(deep)}"#)?.code == .tooLarge)
        #expect(error(deep)?.code == .tooLarge)
        #expect(error(#"{"cmd":"watch","targets":[[["x"]]]}"#)?.code == .badField)
        // Brackets inside strings are not nesting.
        #expect(error(#"{"cmd":"hunt","targets":["[[[[[[[[[[["]}"#) == nil)
    }

    @Test func framingErrors() {
        #expect(error("not json")?.code == .badJSON)
        #expect(error("[1,2]")?.code == .badJSON)
        #expect(error(#"{"nocmd":1}"#)?.field == "cmd")
        #expect(error(#"{"cmd":"fly"}"#)?.code == .unknownCommand)
        #expect(error(#"{"cmd":"fly"}"#)?.message.contains("unknown command \"fly\"") == true)
        #expect(error(#"{"cmd":"status","verbose":true}"#)?.code == .badField)
        #expect(error(#"{"cmd":"status","verbose":true}"#)?.field == "verbose")
        #expect(error(#"{"cmd":"watch","enable":"yes"}"#)?.message.contains("true or false") == true)
        #expect(error(#"{"cmd":"store","op":"fly","id":"x"}"#)?.field == "op")
        #expect(error(#"{"cmd":"store","op":"seen","id":"x","stars":3}"#)?.field == "stars")
    }

    @Test func uploadsAreCapped() throws {
        #expect(try request(#"{"cmd":"upload","purpose":"import","size":67108864}"#) == .upload(UploadRequest(purpose: .import, size: 64 << 20)))
        #expect(error(#"{"cmd":"upload","purpose":"import","size":67108865}"#)?.code == .tooLarge)
        #expect(error(#"{"cmd":"upload","purpose":"photo","size":10485761}"#)?.code == .tooLarge)
        #expect(error(#"{"cmd":"upload","purpose":"photo","size":0}"#)?.code == .badField)
        #expect(error(#"{"cmd":"upload","purpose":"photo","size":1e300}"#)?.code == .outOfRange)
        let big = Data(repeating: 7, count: Limits.chunkBytes + 3).base64EncodedString()
        #expect(error(#"{"cmd":"chunk","upload":"u","offset":0,"data":"\#(big)"}"#)?.code == .tooLarge)
        #expect(error(#"{"cmd":"chunk","upload":"u","offset":0,"data":"%%%"}"#)?.field == "data")
        #expect(error(#"{"cmd":"chunk","upload":"u","offset":-1,"data":"AA=="}"#)?.code == .outOfRange)
    }

    @Test func submitNeedsAPlace() throws {
        #expect(error(#"{"cmd":"submit","name":"Big Wombat","seen_at":"2024-01-01T00:00:00Z"}"#)?.field == "lat")
        #expect(error(#"{"cmd":"submit","name":"W","address":"  ","seen_at":"2024-01-01T00:00:00Z"}"#)?.field == "address")
        #expect(error(#"{"cmd":"submit","name":"W","lat":1,"lon":2,"seen_at":"yesterday"}"#)?.field == "seen_at")
        #expect(error(#"{"cmd":"submit","name":"W","lat":1,"lon":2,"seen_at":"2024-01-01T00:00:00Z","photo":{"upload":"u"}}"#)?.field == "filename")
        #expect(error(#"{"cmd":"submit","name":"W","lat":1,"lon":2,"seen_at":"2024-01-01T00:00:00Z","photo":{"upload":"u","filename":"a","content_type":"b","x":1}}"#)?.field == "x")
    }

    /// A photo is one of the image types the daemon can check by content; an idempotency key
    /// is 16 to 64 characters of letters, digits, - and _.
    @Test func submitTakesImageTypesAndWellFormedKeys() throws {
        let head = #"{"cmd":"submit","name":"W","lat":1,"lon":2,"seen_at":"2024-01-01T00:00:00Z""#
        for type in ["application/octet-stream", "text/html", "image/tiff", "image/svg+xml"] {
            let e = error(head + #","photo":{"upload":"u","filename":"a","content_type":"\#(type)"}}"#)
            #expect(e?.field == "content_type" && e?.code == .badField && e?.message.contains("not \(type)") == true, "\(type)")
        }
        for type in PhotoContent.types {
            #expect(error(head + #","photo":{"upload":"u","filename":"a","content_type":"\#(type)"}}"#) == nil, "\(type)")
        }
        for key in ["short", String(repeating: "k", count: 65), "has space in it, sixteen+", "ünïcödé-key-0123456", ""] {
            #expect(error(head + #","key":"\#(key)"}"#)?.field == "key", "\(key)")
        }
        #expect(error(head + #","key":"AbC-123_xyz-0987654"}"#) == nil)
    }

    /// What a client encodes, the daemon decodes to the same value.
    @Test func requestsRoundTrip() throws {
        for r in RequestExamples.all {
            #expect(try Request.decode(line: r.line).get() == r, "\(r.line)")
        }
    }
}

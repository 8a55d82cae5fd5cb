// Socket request decoding (HotColdProtocol): one line from a client, to the daemon's socket and
// to hotcold-web's control socket; and a line's class, read by its prefix or by a parse.
//
// Invariants: nothing traps; decoding gives a request or a ProtocolError; a decoded request
// re-encodes (`line`) to a line that decodes to the same request; a class read by the prefix
// is the one the parse reads whenever the line parses.
import FuzzSupport
import HotColdProtocol

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    fuzz(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

func fuzz(_ bytes: UnsafeRawBufferPointer) {
    let text = String(decoding: bytes, as: UTF8.self)
    if let parsed = WireCoding.classNameByParsing(of: text) {
        fuzzCheck(WireCoding.className(of: text) == parsed, "\(text): the prefix and the parse read different classes")
    }
    if case .success(let control) = WebControlRequest.decode(line: text) {
        fuzzCheck(WebControlRequest.decode(line: control.line) == .success(control), "\(text) → \(control.line) → not the same control request")
    }
    guard case .success(let request) = Request.decode(line: text) else { return }
    let line = request.line
    guard case .success(let again) = Request.decode(line: line) else {
        fuzzCheck(false, "\(text) decoded, but its re-encoding \(line) does not")
        return
    }
    fuzzCheck(again == request, "\(text) → \(line) → a different request")
}

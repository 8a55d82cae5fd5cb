// Socket request decoding (HotColdProtocol): one line from a client.
//
// Invariants: nothing traps; decoding gives a Request or a ProtocolError; a decoded request
// re-encodes (`line`) to a line that decodes to the same request.
import FuzzSupport
import HotColdProtocol

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    fuzz(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

func fuzz(_ bytes: UnsafeRawBufferPointer) {
    let text = String(decoding: bytes, as: UTF8.self)
    guard case .success(let request) = Request.decode(line: text) else { return }
    let line = request.line
    guard case .success(let again) = Request.decode(line: line) else {
        fuzzCheck(false, "\(text) decoded, but its re-encoding \(line) does not")
        return
    }
    fuzzCheck(again == request, "\(text) → \(line) → a different request")
}

// The replay readers through `TrackReader`; this target's seeds and dictionary lean to one
// format, but the reader detects the format from content like it does for real files.
import FuzzSupport
import ReplayFuzzCheck

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    ReplayCheck.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

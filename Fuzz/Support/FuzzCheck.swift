#if canImport(Glibc)
import Glibc
#endif

/// Stops the fuzzer with a message when an invariant fails: libFuzzer records the input as a
/// crash, exactly as for a trap. `precondition` would say less and vanishes under `-Ounchecked`.
///
/// A target is a module with one `@_cdecl("LLVMFuzzerTestOneInput")` function; libFuzzer's own
/// `main` (linked by `--sanitize=fuzzer`) calls it with every input:
///
/// ```swift
/// @_cdecl("LLVMFuzzerTestOneInput")
/// public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
///     let bytes = UnsafeRawBufferPointer(start: data, count: size)
///     if let config = try? ConfigLoader.parse(String(decoding: bytes, as: UTF8.self), file: "fuzz.toml") {
///         fuzzCheck(config.tracking.roamRadius.isFinite, "roam radius \(config.tracking.roamRadius)")
///     }
///     return 0
/// }
/// ```
public func fuzzCheck(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
                      file: StaticString = #fileID, line: UInt = #line) {
    guard !condition() else { return }
    let text = "fuzz invariant failed at \(file):\(line): \(message())\n"
    _ = text.withCString { write(2, $0, strlen($0)) }
    abort()
}

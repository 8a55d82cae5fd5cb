/// One encoded output line (its bytes and the newline) in memory that never moves, shared by
/// every client queue it was broadcast to: a broadcast copies the line once, not per client,
/// and the event loop can `writev` from it without holding any lock.
final class OutgoingLine: Sendable {
    nonisolated(unsafe) let bytes: UnsafeRawBufferPointer

    init(_ line: String) {
        let count = line.utf8.count + 1
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: count, alignment: 1)
        let written = line.utf8.withContiguousStorageIfAvailable { src in
            buffer.copyMemory(from: UnsafeRawBufferPointer(src))
            return src.count
        }
        if written == nil {
            for (i, b) in line.utf8.enumerated() { buffer[i] = b }
        }
        buffer[count - 1] = UInt8(ascii: "\n")
        bytes = UnsafeRawBufferPointer(buffer)
    }

    var count: Int { bytes.count }

    deinit { bytes.deallocate() }
}

/// Splits a byte stream into lines, refusing lines longer than `maxLineBytes` without
/// buffering them: once a line is too long the rest of it is skipped as it arrives.
struct LineFramer {
    enum Item: Equatable {
        /// A complete line without its `\n` (and without a trailing `\r`).
        case line([UInt8])
        /// A line went over the limit; reported once, as soon as it crossed the limit.
        case tooLong
    }

    let maxLineBytes: Int
    private var buffer: [UInt8] = []
    private var discarding = false

    init(maxLineBytes: Int) { self.maxLineBytes = maxLineBytes }

    /// Bytes of an unfinished line held now (at most `maxLineBytes`).
    var buffered: Int { buffer.count }

    mutating func feed(_ bytes: UnsafeRawBufferPointer, _ emit: (Item) -> Void) {
        var start = 0
        let end = bytes.count
        while start < end {
            var nl = start
            while nl < end, bytes[nl] != UInt8(ascii: "\n") { nl += 1 }
            let piece = UnsafeRawBufferPointer(rebasing: bytes[start..<nl])
            let complete = nl < end
            if discarding {
                if complete { discarding = false }
            } else if buffer.count + piece.count > maxLineBytes {
                emit(.tooLong)
                buffer = []
                discarding = !complete
            } else if complete {
                buffer.append(contentsOf: piece)
                if buffer.last == UInt8(ascii: "\r") { buffer.removeLast() }
                let line = buffer
                buffer.removeAll(keepingCapacity: buffer.capacity <= 4096)
                emit(.line(line))
            } else {
                buffer.append(contentsOf: piece)
            }
            start = complete ? nl + 1 : nl
        }
    }
}

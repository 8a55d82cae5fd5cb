/// Splits a byte stream into lines, refusing lines longer than `maxLineBytes` without
/// buffering them: once a line is too long the rest of it is skipped as it arrives.
///
/// Bytes go in with `append`, lines come out one at a time with `next()`, so the reader can
/// stop taking lines (a client with a command in flight) and leave the rest here, unparsed,
/// until it is ready. The buffer holds at most what was appended since the last complete
/// line plus one line (`maxLineBytes`): the event loop appends only when `next()` is empty.
struct LineFramer {
    enum Item: Equatable {
        /// A complete line without its `\n` (and without a trailing `\r`).
        case line([UInt8])
        /// A line went over the limit; reported once, as soon as it crossed the limit.
        case tooLong
    }

    let maxLineBytes: Int
    private var buffer: [UInt8] = []
    /// Where the unconsumed bytes start in `buffer`.
    private var head = 0
    /// Bytes from `head` known to hold no newline (not scanned again).
    private var scanned = 0
    private var discarding = false

    init(maxLineBytes: Int) { self.maxLineBytes = maxLineBytes }

    /// Bytes held now that are not yet a line.
    var buffered: Int { buffer.count - head }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        if head > 0, head >= buffer.count / 2 {
            buffer.removeFirst(head)
            head = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next complete line (or `.tooLong` report), nil when more bytes are needed.
    mutating func next() -> Item? {
        while true {
            var nl = head + scanned
            while nl < buffer.count, buffer[nl] != UInt8(ascii: "\n") { nl += 1 }
            guard nl < buffer.count else {
                scanned = buffer.count - head
                if discarding {
                    consume(to: buffer.count)
                } else if scanned > maxLineBytes {
                    discarding = true
                    consume(to: buffer.count)
                    return .tooLong
                }
                return nil
            }
            let start = head
            var item: Item? = nil
            if !discarding {
                var end = nl
                if end > start, buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                item = nl - start > maxLineBytes ? .tooLong : .line(Array(buffer[start..<end]))
            }
            discarding = false
            consume(to: nl + 1)   // may empty `buffer`: the line is copied out first
            if let item { return item }
        }
    }

    private mutating func consume(to index: Int) {
        head = index
        scanned = 0
        if head == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 17)
            head = 0
        }
    }

    /// Appends and hands every complete line to `emit` (for callers that never pause).
    mutating func feed(_ bytes: UnsafeRawBufferPointer, _ emit: (Item) -> Void) {
        append(bytes)
        while let item = next() { emit(item) }
    }
}

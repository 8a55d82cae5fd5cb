import HotColdCore

/// gpsd JSON lines → fixes from the TPV objects.
final class GPSDJSONReader {
    private let lines: LineReader
    private let parser = GPSDJSONParser()
    private(set) var stats = ReplayStats()

    init(lines: LineReader) {
        self.lines = lines
    }

    func next() throws -> Fix? {
        while true {
            switch try lines.nextLine() {
            case .end:
                return nil
            case .tooLong:
                stats.lines += 1
                stats.skip(.tooLong)
            case .line(let bytes, let terminated):
                stats.lines += 1
                var i = 0
                while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0D { i += 1 }
                if i == bytes.count || bytes[i] == 0x23 {
                    stats.comments += 1
                    continue
                }
                switch parser.parse(bytes) {
                case .fix(let fix):
                    stats.fixes += 1
                    return fix
                case .otherClass: stats.ignored += 1
                case .noTime: stats.skip(.noTime)
                // A last line the file ends in the middle of is cut off, not garbage.
                case .invalid: stats.skip(terminated ? .unparsable : .truncated)
                }
            }
        }
    }
}

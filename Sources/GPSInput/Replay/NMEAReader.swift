import HotColdCore

/// NMEA 0183 log → fixes: splits lines into sentences, parses them, assembles epochs.
final class NMEAReader {
    private let lines: LineReader
    private var parser = NMEAParser()
    private var assembler = NMEAEpochAssembler()
    private(set) var stats = ReplayStats()
    private var finished = false

    init(lines: LineReader) {
        self.lines = lines
    }

    func next() throws -> Fix? {
        while true {
            if let fix = assembler.nextFix() {
                stats.fixes += 1
                return fix
            }
            if finished { return nil }
            switch try lines.nextLine() {
            case .end:
                assembler.finish()
                finished = true
            case .tooLong:
                stats.lines += 1
                stats.skip(.tooLong)
            case .line(let bytes, let terminated):
                stats.lines += 1
                handle(bytes, terminated: terminated)
            }
        }
    }

    /// One line can hold several sentences when a receiver dropped a line ending, or a cut-off
    /// sentence followed by a whole one (`$GPGGA,0301$GPGLL,…`): every `$` starts a sentence.
    private func handle(_ line: UnsafeBufferPointer<UInt8>, terminated: Bool) {
        var i = 0
        while i < line.count, line[i] == 0x20 || line[i] == 0x09 || line[i] == 0x0D { i += 1 }
        if i == line.count || line[i] == 0x23 {
            stats.comments += 1
            return
        }
        if line[i] != 0x24 {
            // Noise before the first sentence (or a line of nothing else).
            guard let dollar = line[i...].firstIndex(of: 0x24) else {
                stats.skip(.unparsable)
                return
            }
            stats.skip(.unparsable)
            i = dollar
        }
        while i < line.count {
            let nextDollar = line[(i + 1)...].firstIndex(of: 0x24)
            let end = nextDollar ?? line.count
            let sentence = UnsafeBufferPointer(rebasing: line[i..<end])
            switch parser.parse(sentence, cutOff: nextDollar != nil || !terminated) {
            case .success(let s):
                if parser.lastHadNoChecksum { stats.missingChecksum += 1 }
                switch s {
                case .other: stats.ignored += 1
                // A position report with an empty time field cannot join an epoch.
                case .gga(let g) where g.timeOfDay == nil: stats.skip(.noTime)
                case .rmc(let r) where r.timeOfDay == nil: stats.skip(.noTime)
                default: assembler.add(s)
                }
            case .failure(.badChecksum): stats.skip(.badChecksum)
            case .failure(.truncated): stats.skip(.truncated)
            case .failure(.unparsable): stats.skip(.unparsable)
            }
            i = end
        }
    }
}

import Foundation
import Glibc
import Synchronization

/// Reads many sockets on one thread and checks that each receives `{"class":"PROXIMITY","seq":N,…}`
/// lines with N = 0, 1, 2, … in order (other lines are skipped).
final class SequenceReader: Sendable {
    let progress: Mutex<[Int]>
    let faults = Mutex<[String]>([])
    private let stop = Atomic<Bool>(false)
    private let done = DispatchSemaphore(value: 0)

    init(fds: [Int32]) {
        progress = Mutex([Int](repeating: 0, count: fds.count))
        let thread = Thread { [self] in
            run(fds)
            done.signal()
        }
        thread.start()
    }

    func finish() {
        stop.store(true, ordering: .relaxed)
        done.wait()
    }

    func all(reached n: Int) -> Bool { progress.withLock { $0.allSatisfy { $0 == n } } }

    func behind(_ n: Int) -> String {
        progress.withLock { p in p.enumerated().filter { $0.1 != n }.prefix(5).map { "reader \($0.0) at \($0.1)" }.joined(separator: ", ") }
    }

    private func run(_ fds: [Int32]) {
        var partial = [[UInt8]](repeating: [], count: fds.count)
        var buf = [UInt8](repeating: 0, count: 65536)
        var pfds = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        while !stop.load(ordering: .relaxed) {
            guard poll(&pfds, nfds_t(pfds.count), 50) > 0 else { continue }
            for i in pfds.indices where pfds[i].revents != 0 {
                let n = read(pfds[i].fd, &buf, buf.count)
                guard n > 0 else {
                    faults.withLock { $0.append("reader \(i): EOF") }
                    pfds[i].fd = -1
                    continue
                }
                partial[i].append(contentsOf: buf[..<n])
                while let nl = partial[i].firstIndex(of: 10) {
                    let line = String(decoding: partial[i][..<nl], as: UTF8.self)
                    partial[i].removeSubrange(...nl)
                    guard line.hasPrefix(#"{"class":"PROXIMITY""#) else { continue }
                    let seq = Int(line.split(separator: ",")[1].dropFirst(6)) ?? -1
                    progress.withLock { p in
                        if seq != p[i] { faults.withLock { $0.append("reader \(i): got \(seq), wanted \(p[i])") } }
                        p[i] = seq + 1
                    }
                }
            }
        }
    }
}

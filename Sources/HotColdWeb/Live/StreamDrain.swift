import NIOCore
import Synchronization

/// Bounds what one live stream holds in flight, and cuts a stream nobody reads within seconds.
///
/// A browser that stops reading (a page frozen in the background, a phone gone from the Wi-Fi
/// without a word, a client that never meant to read) leaves its connection open; unbounded,
/// the kernel takes frames into a send buffer that grows to megabytes, and the stream's frame
/// queue never fills: minutes of a live slot held. Two bounds, checked every quarter second on
/// the connection's event loop:
///
/// - **Bytes in flight.** The connection gets a small send buffer (`SO_SNDBUF`) and low
///   write-buffer watermarks, so once the peer stops taking data hotcold-web holds a few tens
///   of KiB for it at most, and the channel stops being writable. Not writable again within
///   `stallSeconds`: cut. This catches a peer that vanished (no acknowledgements come back).
/// - **Proof of reading.** A peer that is there but does not read is invisible to TCP until
///   its own receive buffer is full (Linux keeps advertising a full window while it has room,
///   hundreds of KiB: minutes of STATUS frames). So the page says it reads: the stream's first
///   frame names it, and the page posts `/events/read?stream=ID` every couple of seconds while
///   frames arrive. No word for `readSeconds`: cut.
///
/// Either way the browser reconnects with Last-Event-ID and loses nothing, and the slot is
/// free for another device.
final class StreamDrain: Sendable {
    private let task: RepeatedTask?

    enum Cut: Sendable { case stalled, unread }

    /// Applies the bounds to `channel` and starts watching; `readAt` is when the page last said
    /// it read; `onCut` is told once, with why, when the stream is cut.
    init(channel: any Channel, sendBuffer: Int, stallSeconds: Double, readSeconds: Double,
         readAt: @escaping @Sendable () -> ContinuousClock.Instant?, onCut: @escaping @Sendable (Cut) -> Void) {
        _ = channel.setOption(ChannelOptions.socketOption(.so_sndbuf), value: SocketOptionValue(sendBuffer))
        _ = channel.setOption(ChannelOptions.writeBufferWaterMark,
                              value: ChannelOptions.Types.WriteBufferWaterMark(low: sendBuffer / 2, high: sendBuffer))
        let stallLimit = Duration.milliseconds(Int64(stallSeconds * 1000))
        let readLimit = Duration.milliseconds(Int64(readSeconds * 1000))
        let stuckSince = Mutex<ContinuousClock.Instant?>(nil)
        task = channel.eventLoop.scheduleRepeatedTask(initialDelay: .milliseconds(250), delay: .milliseconds(250)) { task in
            guard channel.isActive else { task.cancel(); return }
            let now = ContinuousClock.now
            let stalled = stuckSince.withLock { since -> Bool in
                if channel.isWritable { since = nil; return false }
                if since == nil { since = now }
                return now - since! >= stallLimit
            }
            let unread = readAt().map { now - $0 >= readLimit } ?? false
            guard stalled || unread else { return }
            task.cancel()
            onCut(stalled ? .stalled : .unread)
            channel.close(promise: nil)
        }
    }

    func stop() { task?.cancel() }

    deinit { task?.cancel() }
}

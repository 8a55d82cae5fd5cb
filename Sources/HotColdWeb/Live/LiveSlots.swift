import Synchronization

/// Counts the browsers following the live stream, against `live.max_clients` in all and
/// `live.max_per_device` for one device (a paired device by its pairing, a browser on the box
/// by its local user), so one device holding streams it never reads cannot lock every other
/// device out; ``StreamDrain`` cuts those streams within seconds of their buffers filling.
///
/// A slot is taken only once the stream is really open (the response head is written and its
/// body runs) and is given back by the ``Slot`` itself, whatever ends the stream: `release()`,
/// or the slot being dropped (a stream that never started, a write that failed).
public final class LiveSlots: Sendable {
    public let limit: Int
    public let perDevice: Int
    private struct State {
        var taken = 0
        var byDevice: [String: Int] = [:]
        var refused = 0
        var dropped = 0
        var stalled = 0
        var unread = 0
        /// Each open stream's owner (who may say it reads it) and when it last said so.
        var streams: [String: (owner: String, readAt: ContinuousClock.Instant)] = [:]
    }
    private let state = Mutex(State())

    public init(limit: Int, perDevice: Int = .max) {
        self.limit = limit
        self.perDevice = perDevice
    }

    /// Why a stream cannot open now.
    public enum Refusal: Error, Sendable, Equatable {
        case full
        case deviceFull
    }

    /// Whether a stream for `device` could open now (the early answer, 503 before the head).
    /// `device` nil: this machine's own browsers, not limited per device.
    public func check(device: String?) -> Refusal? {
        state.withLock { s in
            if s.taken >= limit { return .full }
            if let device, s.byDevice[device, default: 0] >= perDevice { return .deviceFull }
            return nil
        }
    }

    /// Takes a slot for `device`, or says why not (counted in `refused`). `owner` is who may
    /// acknowledge reading the stream (``read(stream:owner:now:)``).
    func acquire(device: String?, owner: String = "", now: ContinuousClock.Instant = .now) -> Result<Slot, Refusal> {
        let id = TokenStore.mint()
        let refusal = state.withLock { s -> Refusal? in
            if s.taken >= limit { s.refused += 1; return .full }
            if let device, s.byDevice[device, default: 0] >= perDevice { s.refused += 1; return .deviceFull }
            s.taken += 1
            if let device { s.byDevice[device, default: 0] += 1 }
            s.streams[id] = (owner, now)
            return nil
        }
        if let refusal { return .failure(refusal) }
        return .success(Slot(slots: self, device: device, id: id))
    }

    /// The page says it has read stream `id` (it does so every couple of seconds while frames
    /// arrive): false when no such stream is open for `owner`.
    func read(stream id: String, owner: String, now: ContinuousClock.Instant = .now) -> Bool {
        state.withLock { s in
            guard let e = s.streams[id], TokenStore.same(Array(e.owner.utf8), Array(owner.utf8)) else { return false }
            s.streams[id] = (e.owner, now)
            return true
        }
    }

    /// When the page last said it read stream `id` (when it opened, until it says so).
    func readAt(stream id: String) -> ContinuousClock.Instant? { state.withLock { $0.streams[id]?.readAt } }

    fileprivate func give(device: String?, id: String) {
        state.withLock { s in
            s.streams[id] = nil
            s.taken = max(0, s.taken - 1)
            guard let device else { return }
            let n = s.byDevice[device, default: 0] - 1
            s.byDevice[device] = n > 0 ? n : nil
        }
    }

    /// A browser that read too slowly and was cut off (it resumes by itself).
    func countDropped() { state.withLock { $0.dropped += 1 } }

    /// A stream cut by ``StreamDrain``: its connection stopped draining, or its page stopped
    /// saying it reads.
    func countCut(_ why: StreamDrain.Cut) {
        state.withLock { s in
            switch why {
            case .stalled: s.stalled += 1
            case .unread: s.unread += 1
            }
        }
    }

    public var inUse: Int { state.withLock { $0.taken } }
    public func inUse(device: String) -> Int { state.withLock { $0.byDevice[device, default: 0] } }
    public var refused: Int { state.withLock { $0.refused } }
    public var dropped: Int { state.withLock { $0.dropped } }
    /// Streams cut because their connection stopped draining / because nobody said they read them.
    public var stalled: Int { state.withLock { $0.stalled } }
    public var unread: Int { state.withLock { $0.unread } }

    /// One taken slot: given back exactly once, by `release()` or when the last reference goes.
    public final class Slot: Sendable {
        private let slots: LiveSlots
        private let device: String?
        /// The stream's own name (128+ random bits), told to the page in the stream's first frame.
        let id: String
        private let held = Mutex(true)

        fileprivate init(slots: LiveSlots, device: String?, id: String) {
            self.slots = slots
            self.device = device
            self.id = id
        }

        public func release() {
            if held.withLock({ h in defer { h = false }; return h }) { slots.give(device: device, id: id) }
        }

        deinit { release() }
    }
}

import Synchronization

/// Counts the browsers following the live stream, against `live.max_clients` in all and
/// `live.max_per_device` for one device (a paired device by its pairing, anyone else by address),
/// so one device holding streams it never reads cannot lock every other device out.
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

    /// Takes a slot for `device`, or says why not (counted in `refused`).
    func acquire(device: String?) -> Result<Slot, Refusal> {
        let refusal = state.withLock { s -> Refusal? in
            if s.taken >= limit { s.refused += 1; return .full }
            if let device, s.byDevice[device, default: 0] >= perDevice { s.refused += 1; return .deviceFull }
            s.taken += 1
            if let device { s.byDevice[device, default: 0] += 1 }
            return nil
        }
        if let refusal { return .failure(refusal) }
        return .success(Slot(slots: self, device: device))
    }

    fileprivate func give(device: String?) {
        state.withLock { s in
            s.taken = max(0, s.taken - 1)
            guard let device else { return }
            let n = s.byDevice[device, default: 0] - 1
            s.byDevice[device] = n > 0 ? n : nil
        }
    }

    /// A browser that read too slowly and was cut off (it resumes by itself).
    func countDropped() { state.withLock { $0.dropped += 1 } }

    public var inUse: Int { state.withLock { $0.taken } }
    public func inUse(device: String) -> Int { state.withLock { $0.byDevice[device, default: 0] } }
    public var refused: Int { state.withLock { $0.refused } }
    public var dropped: Int { state.withLock { $0.dropped } }

    /// One taken slot: given back exactly once, by `release()` or when the last reference goes.
    public final class Slot: Sendable {
        private let slots: LiveSlots
        private let device: String?
        private let held = Mutex(true)

        fileprivate init(slots: LiveSlots, device: String?) {
            self.slots = slots
            self.device = device
        }

        public func release() {
            if held.withLock({ h in defer { h = false }; return h }) { slots.give(device: device) }
        }

        deinit { release() }
    }
}

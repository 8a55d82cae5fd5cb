import Synchronization

/// Who is sending a photo now, and how fast a photo must arrive.
///
/// A photo is streamed to the daemon as it arrives (a chunk at a time: never held whole), so a
/// transfer in progress costs a connection to the daemon and a few tens of KiB, not 10 MiB:
/// several can run at once. Each device sends one photo at a time (a second from the same
/// phone is refused while its first is under way), and the uploads in progress from all
/// devices together are bounded (``Limits/total``). A photo must keep arriving — at least
/// ``Limits/minimumRate`` bytes a second over every ``Limits/window`` — and arrive whole
/// within ``Limits/deadline``; a sender that dribbles is cut at the end of its first slow
/// window with a 408 that says why, and its slot is free again. So a slow phone holds only
/// its own slot, and never for long.
///
/// ```swift
/// guard let slot = uploads.take(device: "device:…") else { … }   // busy: this device, or all slots
/// defer { slot.release() }
/// ```
public final class PhotoUploads: Sendable {
    public struct Limits: Sendable, Equatable {
        /// Uploads in progress at once, from all devices.
        public var total = 8
        /// Seconds a whole photo may take to arrive.
        public var deadline = 120.0
        /// Bytes a second a photo must arrive at, at least, in every window (the first included).
        public var minimumRate = 8 << 10
        /// Seconds over which the rate is measured.
        public var window = 10.0

        public init() {}
    }

    public enum Refusal: Error, Equatable {
        /// This device is sending a photo already.
        case deviceBusy
        /// ``Limits/total`` uploads are in progress.
        case full(Int)
    }

    public let limits: Limits
    private let active = Mutex<Set<String>>([])

    public init(limits: Limits = Limits()) { self.limits = limits }

    /// The slot for `device`'s photo, or why there is none now.
    func take(device: String) -> Result<Slot, Refusal> {
        active.withLock { a in
            if a.contains(device) { return .failure(.deviceBusy) }
            if a.count >= limits.total { return .failure(.full(a.count)) }
            a.insert(device)
            return .success(Slot(owner: self, device: device))
        }
    }

    /// Uploads in progress now.
    var count: Int { active.withLock { $0.count } }

    fileprivate func release(_ device: String) { _ = active.withLock { $0.remove(device) } }

    /// One device's right to send a photo now; ``release()`` gives it back.
    final class Slot: Sendable {
        let owner: PhotoUploads
        let device: String
        private let released = Mutex(false)

        fileprivate init(owner: PhotoUploads, device: String) {
            self.owner = owner
            self.device = device
        }

        func release() {
            let first = released.withLock { r in defer { r = true }; return !r }
            if first { owner.release(device) }
        }
    }
}

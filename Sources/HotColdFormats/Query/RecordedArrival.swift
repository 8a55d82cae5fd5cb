/// The outcome of ``Store/recordArrival(placeID:user:at:episode:)``: the stored visit and
/// whether this call stored it (false when the episode had already been recorded).
public struct RecordedArrival: Sendable, Equatable {
    public var visit: Visit
    public var isNew: Bool

    public init(visit: Visit, isNew: Bool) {
        self.visit = visit
        self.isNew = isNew
    }
}

/// A visit together with the place visited (`hotcold visits`, visit exports).
public struct VisitRecord: Codable, Sendable, Equatable {
    public var visit: Visit
    public var place: Place

    public init(visit: Visit, place: Place) {
        self.visit = visit
        self.place = place
    }
}

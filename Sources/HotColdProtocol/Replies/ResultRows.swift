#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HotColdCore

/// One row of the `near` reply: a place and its distance and direction from the point asked.
public struct NearbyPlace: Codable, Sendable, Equatable {
    public var target: TargetRef
    public var lat: Double
    public var lon: Double
    public var distanceM: Double
    public var bearingDeg: Double
    /// Why the place is gone (`demolished`, `removed`, `withdrawn`, `archived`, `disabled`),
    /// absent while it stands (since 1.12): listed, but not worth driving to.
    public var gone: String?

    public init(target: TargetRef, lat: Double, lon: Double, distanceM: Double, bearingDeg: Double, gone: String? = nil) {
        self.target = target
        self.lat = lat
        self.lon = lon
        self.distanceM = distanceM
        self.bearingDeg = bearingDeg
        self.gone = gone
    }
}

/// One row of the `outbox` reply: a queued web API request, its body shown without a photo's
/// bytes.
public struct OutboxEntry: Codable, Sendable, Equatable {
    public var id: Int64
    public var kind: String
    public var state: String
    var idempotencyKey: String
    public var placeId: String?
    var submissionId: Int64?
    public var attempts: Int
    var createdAt: Date
    var lastAttemptAt: Date?
    var nextAttemptAt: Date?
    public var lastError: String?
    public var httpStatus: Int?
    /// The request body, with a photo's base64 replaced by its size.
    var request: String
    /// For a submission: the Big Thing's name.
    public var name: String?
    public var response: String?

    public init(id: Int64, kind: String, state: String, idempotencyKey: String, placeId: String? = nil,
                submissionId: Int64? = nil, attempts: Int, createdAt: Date, lastAttemptAt: Date? = nil,
                nextAttemptAt: Date? = nil, lastError: String? = nil, httpStatus: Int? = nil,
                request: String, name: String? = nil, response: String? = nil) {
        self.id = id
        self.kind = kind
        self.state = state
        self.idempotencyKey = idempotencyKey
        self.placeId = placeId
        self.submissionId = submissionId
        self.attempts = attempts
        self.createdAt = createdAt
        self.lastAttemptAt = lastAttemptAt
        self.nextAttemptAt = nextAttemptAt
        self.lastError = lastError
        self.httpStatus = httpStatus
        self.request = request
        self.name = name
        self.response = response
    }
}

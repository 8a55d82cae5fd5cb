/// A reply carrying a store result: `{"class":"STORE","op":"rate","result":{…}}`, or
/// `{"class":"PLACES","result":[…]}` for the read commands.
///
/// `Result` is one of this module's payloads (a `RatingPayload`, `[PlaceSummaryPayload]`, …),
/// never a database row: the store's executor maps its rows to them, for the socket and for
/// `hotcold --db` alike. Which class each command answers with is in `ResultClass`.
public struct ResultReply<Result: Codable & Sendable>: WireMessage {
    public var wireClass: String
    /// The `store` operation this answers (only for class STORE).
    var op: String?
    public var result: Result
    /// More rows exist past this page (for `search`).
    public var more: Bool?

    public init(_ cls: ResultClass, op: String? = nil, result: Result, more: Bool? = nil) {
        wireClass = cls.rawValue
        self.op = op
        self.result = result
        self.more = more
    }

    public mutating func wireClassDecoded(_ name: String) { wireClass = name }

    enum CodingKeys: String, CodingKey { case op, result, more }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        wireClass = ""
        op = try c.decodeIfPresent(String.self, forKey: .op)
        result = try c.decode(Result.self, forKey: .result)
        more = try c.decodeIfPresent(Bool.self, forKey: .more)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(op, forKey: .op)
        try c.encode(result, forKey: .result)
        try c.encodeIfPresent(more, forKey: .more)
    }
}

/// The classes of result replies, one per command that answers with store data.
public enum ResultClass: String, Sendable, CaseIterable {
    /// `store`: `result` is what the operation returns (a `VisitPayload`, a count, a `RatingPayload`, …).
    case store = "STORE"
    /// `search`: `[PlaceSummaryPayload]`.
    case places = "PLACES"
    /// `place`: `PlaceViewPayload` (the place's detail and the user's own state).
    case place = "PLACE"
    /// `near`: `[NearbyPlace]`.
    case near = "NEAR"
    /// `visits`: `[VisitRecordPayload]`.
    case visits = "VISITS"
    /// `observations`: `[ObservationPayload]`.
    case observations = "OBSERVATIONS"
    /// `outbox`: `[OutboxEntry]`.
    case outbox = "OUTBOX"
    /// `import`: `ImportReportPayload`.
    case `import` = "IMPORT"
    /// `submit`: `SubmissionPayload`.
    case submit = "SUBMIT"
    /// `sync`: the op's ``SyncResult`` (or the store's catalogue report / pending summary).
    case sync = "SYNC"
}

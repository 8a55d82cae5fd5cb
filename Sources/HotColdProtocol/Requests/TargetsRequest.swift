/// `targets`: a page of the tracked targets, nearest first — the full list that `STATUS`
/// cuts at ``Limits/statusTargets`` (since minor 5).
///
/// ```swift
/// let page = Request.targets(TargetsRequest(offset: 50, limit: 200))   // the 51st to 250th nearest
/// ```
public struct TargetsRequest: RequestBody {
    public var offset: Int
    public var limit: Int

    init(offset: Int = 0, limit: Int = Limits.targetsPage) {
        self.offset = offset
        self.limit = limit
    }

    init(_ decoder: any Decoder) throws(ProtocolError) {
        let f = try Fields(decoder, command: "targets", allowed: ["offset", "limit"])
        offset = try f.integer("offset", in: 0...Limits.maxInteger) ?? 0
        limit = try f.integer("limit", in: 1...Limits.targetsPage) ?? Limits.targetsPage
    }

    func encode(to encoder: any Encoder) throws {
        var w = try FieldWriter(encoder, command: "targets")
        try w.put("offset", offset)
        try w.put("limit", limit)
    }
}

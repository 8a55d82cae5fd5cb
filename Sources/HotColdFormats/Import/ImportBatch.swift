import HotColdProtocol

/// What a parser found in a file, before anything is written: the store writes a batch in one
/// transaction or not at all.
public struct ImportBatch: Sendable {
    public var format: ImportFormat
    public var places: [PlaceDetail] = []
    public var observations: [Observation] = []
    public var skipped: [ImportIssue] = []
    public var warnings: [ImportIssue] = []

    public init(format: ImportFormat) { self.format = format }
}

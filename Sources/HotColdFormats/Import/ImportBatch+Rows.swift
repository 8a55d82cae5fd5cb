import HotColdProtocol

/// The loop every JSON list of places shares: each element must be an object, each row becomes a
/// place or a named issue, and a row whose id repeats an earlier one is a warning, not a place.
extension ImportBatch {
    /// `place` reads one row (setting `row.id` once it knows it); `repeatField` names the field
    /// a repeat is blamed on.
    package mutating func addRows(_ list: [JSONValue], repeatField: String, repeatMessage: String,
                          place: (inout JSONRow) throws(ImportIssue) -> PlaceDetail) {
        var seen = Set<String>()
        for (i, value) in list.enumerated() {
            guard let fields = value.object else {
                skipped.append(ImportIssue(row: i + 1, message: "expected an object, found \(value.brief)"))
                continue
            }
            var row = JSONRow(fields, row: i + 1)
            do throws(ImportIssue) {
                let detail = try place(&row)
                guard seen.insert(detail.id).inserted else {
                    warnings.append(row.issue(repeatField, repeatMessage))
                    continue
                }
                places.append(detail)
            } catch {
                skipped.append(error)
            }
        }
    }
}

import HotColdProtocol
import Foundation
import HotColdCore

/// Reads Big Things lists: the bundled catalogue (`{"meta", "things"}`) and the web API's
/// (`{"updated", "things"}`), which share row fields (id, name, town, state, lat, lon, ...).
///
/// Checks that notice real errors, each reported by row, name and reason:
/// - invalid rows (skipped; `--strict` refuses the file): missing id/name, coordinates missing
///   or out of range, unknown state, a coordinate outside its state's box (±0.2°);
/// - duplicates (skipped, as warnings): a repeated id, or a row that says it is
///   `same_object_as` another row of the file; such a row's rating and votes are merged
///   into the row it duplicates when that one has none (the only ratings a catalogue built
///   from two sources may carry are on its second source's rows);
/// - shared coordinates (imported, as warnings): rows with identical points. They are
///   mostly different things given their town's centre, so dropping them would lose real
///   Big Things; the warning names them so the catalogue can be fixed.
///
/// ```swift
/// let batch = try BigThingsImporter.parse(json, format: .bigThingsCatalogue, file: "bigthings.json")
/// ```
enum BigThingsImporter {
    public static func parse(_ root: JSONValue, format: ImportFormat, file: String) throws(ImportError) -> ImportBatch {
        guard let things = root["things"]?.array else {
            throw .structure(file: file, message: "expected a \"things\" array at the top level")
        }
        var batch = ImportBatch(format: format)
        var byID: [String: Int] = [:]     // id -> index in batch.places
        var sameAs: [(JSONRow, String)] = []
        for (i, value) in things.enumerated() {
            guard let fields = value.object else {
                batch.skipped.append(ImportIssue(row: i + 1, message: "expected an object, found \(value.brief)"))
                continue
            }
            let row = JSONRow(fields, row: i + 1)
            // Noted before the row is checked: an invalid duplicate's rating still counts.
            if let other = JSONRow.idText(fields["same_object_as"]), let id = row.id, other != id {
                sameAs.append((row, other))
            }
            do throws(ImportIssue) {
                let detail = try place(from: row)
                if byID[detail.id] != nil {
                    batch.warnings.append(row.issue("id", "repeats an earlier row's id; skipped"))
                    continue
                }
                byID[detail.id] = batch.places.count
                batch.places.append(detail)
            } catch {
                batch.skipped.append(error)
            }
        }
        // A row describing the same object as another row of the file is dropped, so the
        // daemon does not announce the Big Banana twice; its rating is kept on the other row.
        var dropped = Set<String>()
        for (row, other) in sameAs {
            guard let target = byID[other] else { continue }
            let valid = byID[row.id!] != nil
            if valid { dropped.insert(row.id!) }
            var note = "duplicates \(other); skipped"
            switch mergeRating(from: row, into: &batch.places[target]) {
            case .merged(let text): note = "duplicates \(other); its rating \(text) is kept on \(other), the row skipped"
            case .refused(let why): note += "; its rating is not kept: \(why)"
            case .none: break
            }
            // An invalid duplicate is already reported as skipped; its merged rating is worth a word.
            if valid || note != "duplicates \(other); skipped" {
                batch.warnings.append(row.issue("same_object_as", note))
            }
        }
        batch.places.removeAll { dropped.contains($0.id) }
        batch.warnings += sharedCoordinateWarnings(batch.places, rowOf: byID)
        return batch
    }

    package enum RatingMerge { case none, merged(String), refused(String) }

    /// Puts `row`'s rating and votes on `place` when the row has a rating in range and the
    /// place has none of its own.
    package static func mergeRating(from row: JSONRow, into place: inout PlaceDetail) -> RatingMerge {
        let rating: Double?, votes: Int?
        do {
            rating = try row.number("rating", in: 0...5)
            votes = try row.integer("votes", in: 0...Int(Int32.max))
        } catch {
            return .refused(error.message)
        }
        guard let rating, place.bigThing != nil, place.bigThing?.rating == nil else { return .none }
        place.bigThing?.rating = rating
        place.bigThing?.votes = votes
        return .merged("\(JSONLine.number(rating, decimals: 1))" + (votes.map { " (\($0) vote\($0 == 1 ? "" : "s"))" } ?? ""))
    }

    /// Maps one row to a place, or throws the first thing wrong with it.
    package static func place(from row: JSONRow) throws(ImportIssue) -> PlaceDetail {
        guard let id = row.id else { throw row.issue("id", "missing") }
        guard row.name != nil, !row.name!.isEmpty else { throw row.issue("name", "missing") }
        let name = row.name!
        let (lat, lon) = try row.coordinate(lat: "lat", lon: "lon")
        let stateText = try row.requiredText("state")
        guard let state = AustralianState(parsing: stateText) else {
            throw row.issue("state", "\"\(stateText)\" is not an Australian state or territory")
        }
        guard state.contains(latitude: lat, longitude: lon) else {
            throw row.issue("lat,lon", "\(lat),\(lon) is outside \(state.rawValue)"
                + (lat > 0 ? " (a positive latitude is in the northern hemisphere)" : ""))
        }
        let details = BigThingDetails(
            placeId: id, state: state, town: try row.text("town"), location: try row.text("location"),
            description: try row.text("description"), photoUrl: try row.text("photo_url"),
            rating: try row.number("rating", in: 0...5), votes: try row.integer("votes", in: 0...Int(Int32.max)), tags: try row.tags("tags"),
            category: try row.text("category"), year: try row.integer("year"), status: try row.text("status"),
            coordPrecision: try row.text("coord_precision"), withdrawn: try row.bool("withdrawn") ?? false)
        let place = Place(id: id, kind: .bigThing, name: name, latitude: lat, longitude: lon,
                          active: !details.isGone,
                          searchText: SearchText.fold([name, details.town].compactMap { $0 }.joined(separator: " ")))
        return PlaceDetail(place: place, bigThing: details)
    }

    package static func sharedCoordinateWarnings(_ places: [PlaceDetail], rowOf: [String: Int]) -> [ImportIssue] {
        var groups: [String: [PlaceDetail]] = [:]
        var order: [String] = []
        for p in places {
            let key = "\(p.place.latitude),\(p.place.longitude)"
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(p)
        }
        return order.compactMap { key in
            guard let g = groups[key], g.count > 1 else { return nil }
            let names = g.map { "\($0.place.name) (\($0.id))" }.joined(separator: ", ")
            return ImportIssue(id: g[0].id, name: g[0].place.name, field: "lat,lon",
                               message: "\(g.count) rows share the coordinate \(key): \(names); all imported")
        }
    }
}

import Foundation
import HotColdCore
import HotColdProtocol

// The store's rows as replies carry them (``StoreExecutor``): each row's client-facing
// fields, so the database's columns can change without changing the wire.

extension Visit {
    /// Without the photo's path, which names a file on the daemon's disk.
    var payload: VisitPayload {
        VisitPayload(id: id, placeId: placeId, user: user, visitedAt: visitedAt, method: method.rawValue,
                     episode: episode, departedAt: departedAt)
    }
}

extension Rating {
    var payload: RatingPayload { RatingPayload(user: user, placeId: placeId, stars: stars, ratedAt: ratedAt) }
}

extension Note {
    var payload: NotePayload { NotePayload(user: user, placeId: placeId, text: text, updatedAt: updatedAt) }
}

extension UserPlaceState {
    var payload: UserPlaceStatePayload {
        UserPlaceStatePayload(user: user, placeId: placeId, visits: visits.map(\.payload), favourite: favourite,
                              rating: rating?.payload, note: note?.payload)
    }
}

extension VisitRecord {
    var payload: VisitRecordPayload { VisitRecordPayload(visit: visit.payload, place: place.payload) }
}

extension Observation {
    var payload: ObservationPayload {
        ObservationPayload(id: id, user: user, classification: classification.rawValue, title: title,
                           description: description, observedAt: observedAt, latitude: latitude, longitude: longitude)
    }
}

extension Submission {
    var payload: SubmissionPayload {
        SubmissionPayload(id: id, user: user, name: name, latitude: latitude, longitude: longitude, address: address,
                          seenAt: seenAt, submittedBy: submittedBy, photoPath: photoPath, createdAt: createdAt)
    }
}

extension Place {
    /// Without the folded search text, which is how the database finds a name.
    var payload: PlacePayload {
        PlacePayload(id: id, kind: kind, name: name, latitude: latitude, longitude: longitude, active: active)
    }
}

extension PlaceSummary {
    var payload: PlaceSummaryPayload {
        PlaceSummaryPayload(place: place.payload, state: state?.rawValue, town: town, catalogueRating: catalogueRating,
                            catalogueVotes: catalogueVotes, myRating: myRating, favourite: favourite, seen: seen,
                            distance: distance)
    }
}

extension PlaceDetail {
    var payload: PlaceDetailPayload {
        PlaceDetailPayload(place: place.payload, bigThing: bigThing?.payload, geocache: geocache?.payload,
                           waypoint: waypoint?.payload, location: location?.payload, waypoints: waypoints.map(\.payload))
    }
}

extension BigThingDetails {
    var payload: PlaceDetailPayload.BigThing {
        PlaceDetailPayload.BigThing(placeId: placeId, state: state.rawValue, town: town, location: location,
                                    description: description, photoUrl: photoUrl, rating: rating, votes: votes, tags: tags,
                                    category: category, year: year, status: status, coordPrecision: coordPrecision,
                                    withdrawn: withdrawn)
    }
}

extension GeocacheDetails {
    var payload: PlaceDetailPayload.Geocache {
        PlaceDetailPayload.Geocache(placeId: placeId, code: code, cacheType: cacheType, container: container,
                                    difficulty: difficulty, terrain: terrain, owner: owner, placedBy: placedBy, hint: hint,
                                    shortDescription: shortDescription, longDescription: longDescription,
                                    descriptionIsHtml: descriptionIsHTML, logsCount: logsCount, available: available,
                                    archived: archived, country: country, region: region, placedAt: placedAt, url: url,
                                    originalLatitude: originalLatitude, originalLongitude: originalLongitude)
    }
}

extension WaypointDetails {
    var payload: PlaceDetailPayload.Waypoint {
        PlaceDetailPayload.Waypoint(placeId: placeId, parentId: parentId, waypointType: waypointType, comment: comment,
                                    description: description)
    }
}

extension LocationDetails {
    var payload: PlaceDetailPayload.Location {
        PlaceDetailPayload.Location(placeId: placeId, origin: origin.rawValue, createdBy: createdBy, createdAt: createdAt)
    }
}

extension ImportReport {
    var payload: ImportReportPayload {
        ImportReportPayload(file: file, format: format.rawValue, inserted: inserted, updated: updated, unchanged: unchanged,
                            skipped: skipped, warnings: warnings, skippedTotal: skippedTotal, warningsTotal: warningsTotal,
                            details: details)
    }
}

// Public: the daemon's `sync` ops (``OutboxSyncRPC``) reply with these, and only this module
// sees the import report's mapping they build on.

extension CatalogueSyncReport {
    public var payload: SyncResult.Catalogue {
        SyncResult.Catalogue(importReport: importReport.payload, withdrawn: withdrawn, reinstated: reinstated,
                             withdrawnTotal: withdrawnTotal, reinstatedTotal: reinstatedTotal, details: details)
    }
}

extension OutboxPendingSummary {
    public var payload: SyncResult.Pending {
        SyncResult.Pending(count: count, nextAttemptAt: nextAttemptAt, notBefore: notBefore)
    }
}

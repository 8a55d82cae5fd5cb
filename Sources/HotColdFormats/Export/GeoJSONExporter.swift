import HotColdProtocol
import Foundation
import HotColdCore

/// Writes places and visits as a GeoJSON FeatureCollection of Points.
///
/// Each feature's `properties` hold `id`, `kind`, `name` and the kind's details under
/// snake_case names (the same names ``GeoJSONImporter`` reads back).
///
/// ```swift
/// let json = try GeoJSONExporter.places(try store.allPlaces())
/// ```
public enum GeoJSONExporter {
    /// The same bytes ``Store/export(format:visits:user:kinds:to:)`` streams: one feature a line.
    public static func places(_ places: [PlaceDetail]) throws -> Data {
        var out = collectionHead
        for (i, d) in places.enumerated() {
            if i > 0 { out.append(contentsOf: Array(",\n".utf8)) }
            out.append(try encode(feature(d)))
        }
        out.append(collectionTail)
        return out
    }

    /// A place as a Feature: `id`, `kind`, `name` and its kind's details.
    package static func feature(_ d: PlaceDetail) throws -> JSONValue {
        var props: [String: JSONValue] = ["id": .string(d.id), "kind": .string(d.place.kind.rawValue),
                                          "name": .string(d.place.name)]
        let details: (any Encodable)? = d.bigThing ?? d.geocache ?? d.waypoint ?? d.location
        if let details {
            for (k, v) in try flatten(details) where k != "place_id" { props[k] = v }
        }
        return feature(d.place.coordinate, props)
    }

    /// A streamed collection's opening and closing: features go between, one a line, so an
    /// export of any size is written a page at a time.
    package static let collectionHead = Data("{\"type\":\"FeatureCollection\",\"features\":[\n".utf8)
    package static let collectionTail = Data("\n]}\n".utf8)

    /// One value as compact JSON with sorted keys.
    package static func encode(_ v: JSONValue) throws -> Data {
        let enc = JSONEncoder()
        enc.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try enc.encode(v)
    }

    public static func visits(_ visits: [VisitRecord]) throws -> Data {
        try collection(visits.map { v in
            var props: [String: JSONValue] = [
                "kind": .string("visit"), "place_id": .string(v.place.id), "place_kind": .string(v.place.kind.rawValue),
                "name": .string(v.place.name), "user": .string(v.visit.user),
                "visited_at": .string(ISO8601.format(v.visit.visitedAt)), "method": .string(v.visit.method.rawValue),
            ]
            if let p = v.visit.photoPath { props["photo_path"] = .string(p) }
            if let e = v.visit.episode { props["episode"] = .string(e) }
            return feature(v.place.coordinate, props)
        })
    }

    package static func feature(_ c: Coordinate, _ props: [String: JSONValue]) -> JSONValue {
        .object(["type": .string("Feature"),
                 "geometry": .object(["type": .string("Point"),
                                      "coordinates": .array([.number(c.longitude), .number(c.latitude)])]),
                 "properties": .object(props)])
    }

    package static func collection(_ features: [JSONValue]) throws -> Data {
        let root = JSONValue.object(["type": .string("FeatureCollection"), "features": .array(features)])
        let enc = JSONEncoder()
        enc.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try enc.encode(root)
    }

    /// A detail record as snake_case JSON members (dates as ISO-8601), nils left out.
    package static func flatten(_ value: any Encodable) throws -> [String: JSONValue] {
        let enc = JSONEncoder()
        enc.keyEncodingStrategy = .convertToSnakeCase
        enc.dateEncodingStrategy = .custom { date, encoder in
            var c = encoder.singleValueContainer()
            try c.encode(ISO8601.format(date))
        }
        let data = try enc.encode(value)
        return (try JSONReader.parse([UInt8](data))).object ?? [:]
    }
}

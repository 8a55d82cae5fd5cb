#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HotColdCore

/// An engine event line as a value: the engine's own `Event` (whose payloads are the wire
/// shapes, coded in `Event+Wire.swift`) and the daemon's number for it.
///
/// `seq` is the daemon's event number (absent in `hotcold replay` output and older logs).
///
/// ```swift
/// let m = EventMessage(.gps(.init(time: t, state: .fix)), seq: 7)
/// m.line   // {"class":"GPS","seq":7,"state":"fix","time":"…"}
/// ```
public struct EventMessage: SequencedMessage, Equatable {
    /// The engine's event classes.
    public static let classes = Event.classNames

    public var seq: Int?
    public var event: Event

    public var wireClass: String { event.className }

    public init(_ event: Event, seq: Int? = nil) {
        self.event = event
        self.seq = seq
    }

    /// Decodes an event line; nil when the line is of another class.
    public static func decode(line: some StringProtocol) throws(ProtocolError) -> EventMessage? {
        guard let cls = WireCoding.className(of: line), classes.contains(cls) else { return nil }
        return try WireCoding.decode(EventMessage.self, class: cls, from: line)
    }

    /// The line for this event: how the daemon publishes it and `hotcold replay` prints it.
    public var line: String { WireCoding.line(self) }

    enum CodingKeys: String, CodingKey { case `class`, seq }

    /// Reads the line's `class` to know which payload the rest of the object is.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        seq = try c.decodeIfPresent(Int.self, forKey: .seq)
        switch try c.decode(String.self, forKey: .class) {
        case Event.proximityClass: event = .proximity(try Event.Proximity(from: decoder))
        case Event.arrivedClass: event = .arrived(try Event.Passage(from: decoder))
        case Event.departedClass: event = .departed(try Event.Passage(from: decoder))
        case Event.gpsClass: event = .gps(try Event.GPSChange(from: decoder))
        case let other:
            throw DecodingError.dataCorruptedError(forKey: .class, in: c, debugDescription: "not an engine event: \(other)")
        }
    }

    /// The body after `class` (which `WireCoding.line` writes first, as for every message):
    /// `seq` and the payload's fields, side by side in one object.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(seq, forKey: .seq)
        switch event {
        case .proximity(let p): try p.encode(to: encoder)
        case .arrived(let p), .departed(let p): try p.encode(to: encoder)
        case .gps(let g): try g.encode(to: encoder)
        }
    }
}

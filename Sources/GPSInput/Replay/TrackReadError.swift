/// Why a recorded track could not be read at all, naming the file.
///
/// ```swift
/// do { _ = try TrackReader(path: "/tmp/photo.jpg") }
/// catch let e as TrackReadError { print(e) }
/// // cannot read /tmp/photo.jpg: binary data (JPEG image), not a GPS track (NMEA, gpsd JSON or GPX expected)
/// ```
public struct TrackReadError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Reason: Error, Equatable, Sendable {
        /// open(2) or read(2) failed; the text is strerror's.
        case system(String)
        case isDirectory
        case notRegularFile
        case empty
        /// Only `#` comment lines and blanks.
        case onlyComments
        /// Binary content; the associated text names the kind when recognised ("SiRF binary").
        case binary(kind: String?)
        /// A receiver's binary protocol (SiRF, UBX) that only gpsd decodes.
        case receiverBinary(protocolName: String)
        /// Text, but none of the formats we read.
        case unrecognisedText
        /// JSON lines without a single `TPV` object.
        case jsonWithoutTPV
        /// XML that is not GPX, or GPX without track or route points.
        case xmlNotGPX
        case gpxWithoutPoints
        /// The GPX broke before its first point.
        case malformedXML(line: Int, column: Int, message: String)
    }

    public let path: String
    public let reason: Reason

    public init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    public var description: String {
        let expected = "(NMEA, gpsd JSON or GPX expected)"
        let why: String
        switch reason {
        case .system(let text): why = text
        case .isDirectory: why = "is a directory"
        case .notRegularFile: why = "not a regular file"
        case .empty: why = "empty file, not a GPS track \(expected)"
        case .onlyComments: why = "only comment lines, no GPS data \(expected)"
        case .binary(let kind?): why = "binary data (\(kind)), not a GPS track \(expected)"
        case .binary(nil): why = "binary data, not a GPS track \(expected)"
        case .receiverBinary(let name):
            why = "\(name) binary receiver data: not a track we can read directly; replay it through gpsd (gpsfake) and record its JSON"
        case .unrecognisedText: why = "text, but not a GPS track \(expected)"
        case .jsonWithoutTPV: why = "JSON without any TPV object, not a gpsd track"
        case .xmlNotGPX: why = "XML, but not GPX"
        case .gpxWithoutPoints: why = "GPX without track or route points"
        case .malformedXML(let line, let column, let message):
            why = "malformed XML at line \(line), column \(column): \(message)"
        }
        return "cannot read \(path): \(why)"
    }
}

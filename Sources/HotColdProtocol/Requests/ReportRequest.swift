#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `report`: a companion service (hotcold-mqtt, hotcold-sync) tells the daemon how it is
/// doing, so that `status` can show it. The daemon keeps the latest report per service, in
/// memory, and marks it gone when the connection it came on closes.
///
/// ```json
/// {"cmd":"report","service":"hotcold-mqtt","state":"connected","acked_seq":1234,"pending":0,"detail":"broker 127.0.0.1:1883"}
/// ```
public struct ReportRequest: RequestBody {
    /// What a service can say about itself.
    static let states = ["starting", "connected", "disconnected", "idle", "busy", "error"]
    /// Longest service name: lowercase letters, digits and `-`.
    static let serviceLength = 40
    /// Services the daemon keeps reports for at once.
    public static let maxServices = 16

    public var service: String
    public var state: String
    /// The highest event `seq` the service has handed on for good (a broker's acknowledgement).
    public var ackedSeq: Int?
    /// Items waiting in the service (messages awaiting acknowledgement, outbox items).
    public var pending: Int?
    /// One line for people: where it is connected, the last error.
    public var detail: String?
    /// Since 1.9, the MQTT bridge: the device this car is on the broker (`[topics] user` and
    /// `device`), the name its finds carry for followers. The daemon keeps the last one told
    /// (in its database), so the car's own finds show under that one id, and a user here
    /// cannot follow the car itself or like its own finds.
    public var device: FriendID?

    public init(service: String, state: String, ackedSeq: Int? = nil, pending: Int? = nil, detail: String? = nil,
                device: FriendID? = nil) {
        self.service = service
        self.state = state
        self.ackedSeq = ackedSeq
        self.pending = pending
        self.detail = detail
        self.device = device
    }

    init(_ decoder: any Decoder) throws(ProtocolError) {
        let f = try Fields(decoder, command: "report", allowed: ["service", "state", "acked_seq", "pending", "detail", "device"])
        service = try f.requiredString("service", max: Self.serviceLength, what: "the service's name, such as hotcold-mqtt")
        guard service.utf8.allSatisfy({ (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D }) else {
            throw ProtocolError(.badField, command: "report", field: "service", "only lowercase letters, digits and - (such as hotcold-mqtt)")
        }
        state = try f.required(try f.choice("state", Self.states), "state", Self.states.joined(separator: ", "))
        ackedSeq = try f.integer("acked_seq", in: 0...Limits.maxInteger)
        pending = try f.integer("pending", in: 0...Limits.maxInteger)
        detail = try f.string("detail", max: Limits.nameLength, allowEmpty: true)
        device = try f.friend("device")
        if device?.user == FriendID.selfAuthor {
            throw ProtocolError(.badField, command: "report", field: "device", "\"self\" is reserved for this car's own items")
        }
    }

    func encode(to encoder: any Encoder) throws {
        var w = try FieldWriter(encoder, command: "report")
        try w.put("service", service)
        try w.put("state", state)
        try w.put("acked_seq", ackedSeq)
        try w.put("pending", pending)
        try w.put("detail", detail)
        try w.put("device", device)
    }
}

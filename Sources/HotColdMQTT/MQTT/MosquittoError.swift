import CMosquitto

/// A libmosquitto call failed: which call, and libmosquitto's own sentence for the code.
public struct MosquittoError: Error, CustomStringConvertible, Equatable {
    public var call: String
    public var code: Int32
    public var description: String

    init(_ call: String, _ code: Int32) {
        self.call = call
        self.code = code
        description = "\(call): \(String(cString: mosquitto_strerror(code)))"
    }
}

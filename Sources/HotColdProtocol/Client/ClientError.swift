/// Why talking to the daemon failed: it could not be reached, it went away, it said nothing
/// in time, or it refused the request (`refused` carries its `ERROR`).
public enum ClientError: Error, Sendable, CustomStringConvertible {
    case cannotConnect(path: String, reason: String)
    case lost(path: String, reason: String)
    case closed(path: String, waitingFor: String)
    case timeout(path: String, waitingFor: String, seconds: Double)
    case refused(ProtocolError)
    /// The daemon sent something this client cannot read.
    case badReply(ProtocolError)

    public var description: String {
        switch self {
        case .cannotConnect(let path, let reason): "cannot reach hotcoldd at \(path): \(reason) (is it running? --socket PATH)"
        case .lost(let path, let reason): "lost hotcoldd at \(path): \(reason)"
        case .closed(let path, let what): "hotcoldd at \(path) closed the connection before \(what)"
        case .timeout(let path, let what, let s): "hotcoldd at \(path) sent no \(what) within \(s) s"
        case .refused(let e): "the daemon refused it: \(e.sentence)"
        case .badReply(let e): "hotcoldd sent a reply this client cannot read: \(e.message)"
        }
    }
}

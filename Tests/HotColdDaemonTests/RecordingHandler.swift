import Foundation
@testable import HotColdProtocol
import Dispatch
import HotColdCore
import HotColdDaemon
import Synchronization

/// A small command set for exercising `SocketServer`:
/// `watch`, `watch CLASS[,CLASS] [TARGET[,TARGET]]`, `unwatch`, `whoami`, `echo TEXT`, `quit`;
/// `hold TEXT` (answered off the loop only when another client sends `release`), `later TEXT`
/// (answered off the loop at once), `write` (charged to the user's write rate).
final class RecordingHandler: SocketCommandHandler {
    let server: Mutex<SocketServer?> = Mutex(nil)
    let lines = Mutex<[String]>([])
    let clients = Mutex<[ClientInfo]>([])
    let gone = Mutex<[(ClientInfo, String)]>([])
    let held = Mutex<[(DeferredReply, String)]>([])
    /// Commands answered off the loop and not yet answered, per client; and the most seen at once.
    let inFlight = Mutex<[ClientID: Int]>([:])
    let maxInFlight = Mutex<Int>(0)
    private let work = DispatchQueue(label: "recording-handler")

    func attach(_ s: SocketServer) { server.withLock { $0 = s } }

    func greeting(for client: ClientInfo) -> [String] {
        clients.withLock { $0.append(client) }
        var v = JSONLine(class: "VERSION")
        v.add("proto_major", 1)
        return [v.text]
    }

    func handle(line: String, from client: ClientInfo) -> [String] {
        lines.withLock { $0.append(line) }
        let words = line.split(separator: " ").map(String.init)
        let srv = server.withLock { $0 }
        switch words.first {
        case "watch":
            let classes = words.count > 1 ? Set(words[1].split(separator: ",").map(String.init)) : nil
            let targets = words.count > 2 ? Set(words[2].split(separator: ",").map(String.init)) : nil
            srv?.setWatch(client: client.id, Subscription(watching: true, classes: classes, targets: targets))
            return [#"{"class":"WATCH","enable":true}"#]
        case "unwatch":
            srv?.setWatch(client: client.id, Subscription(watching: false))
            return [#"{"class":"WATCH","enable":false}"#]
        case "whoami":
            var o = JSONLine(class: "WHOAMI")
            o.add("pid", Int(client.pid))
            o.add("uid", Int(client.uid))
            o.add("gid", Int(client.gid))
            o.add("user", client.userName ?? "")
            return [o.text]
        case "echo":
            var o = JSONLine(class: "ECHO")
            o.add("text", String(line.dropFirst(5)))
            return [o.text]
        case "hold":
            guard let srv else { return [] }
            held.withLock { $0.append((srv.deferReply(for: client.id), String(line.dropFirst(5)))) }
            return []
        case "release":
            let all = held.withLock { h in defer { h.removeAll() }; return h }
            for (reply, text) in all {
                var o = JSONLine(class: "HELD")
                o.add("text", text)
                reply.send(o.text)
            }
            return [#"{"class":"RELEASED"}"#]
        case "later":
            guard let srv else { return [] }
            let reply = srv.deferReply(for: client.id)
            let now = inFlight.withLock { f -> Int in f[client.id, default: 0] += 1; return f[client.id]! }
            maxInFlight.withLock { $0 = max($0, now) }
            work.async { [self] in
                var o = JSONLine(class: "LATER")
                o.add("text", String(line.dropFirst(6)))
                inFlight.withLock { $0[client.id, default: 1] -= 1 }
                reply.send(o.text)
            }
            return []
        case "write":
            if let busy = srv?.chargeWrite(for: client) {
                var o = JSONLine(class: "ERROR")
                o.add("message", busy)
                return [o.text]
            }
            return [#"{"class":"WROTE"}"#]
        case "quit":
            srv?.disconnect(client.id, reason: "bye")
            return []
        default:
            var o = JSONLine(class: "ERROR")
            o.add("message", "unknown command: \(words.first ?? "")")
            return [o.text]
        }
    }

    func disconnected(_ client: ClientInfo, reason: String) {
        gone.withLock { $0.append((client, reason)) }
    }
}

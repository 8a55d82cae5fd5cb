import Foundation
import HotColdCore
import HotColdDaemon
import Synchronization

/// A small command set for exercising `SocketServer`:
/// `watch`, `watch CLASS[,CLASS] [TARGET[,TARGET]]`, `unwatch`, `whoami`, `echo TEXT`, `quit`.
final class RecordingHandler: SocketCommandHandler {
    let server: Mutex<SocketServer?> = Mutex(nil)
    let lines = Mutex<[String]>([])
    let clients = Mutex<[ClientInfo]>([])
    let gone = Mutex<[(ClientInfo, String)]>([])

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

import Foundation
import Glibc
import HotColdCore
@testable import HotColdProtocol
import HotColdTestSupport
import Logging
import Synchronization
import HotColdDaemonTesting
import Testing
@testable import HotColdDaemon

/// Starts a server on a fresh path with `RecordingHandler`; stops and cleans up afterwards.
func withServer(options: SocketServerOptions = quietOptions(), mode: UInt32 = 0o660,
                _ body: (SocketServer, RecordingHandler, String) throws -> Void) throws {
    let dir = try TemporaryDirectory("hotcold-sock")
    defer { dir.remove() }
    let path = dir.path("run/hotcold.sock")
    let server = try SocketServer(endpoint: .path(path, mode: mode), options: options)
    let handler = RecordingHandler()
    handler.attach(server)
    try server.start(handler: handler)
    defer { server.shutdown() }
    try body(server, handler, path)
}

func quietOptions() -> SocketServerOptions {
    var o = SocketServerOptions()
    o.logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
    return o
}

/// An ERROR line's `code` and `message` (nil when the line is not an ERROR).
func errorFields(_ line: String?) -> [String]? {
    guard let line, let o = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
          o["class"] as? String == "ERROR" else { return nil }
    return [o["code"] as? String ?? "", o["message"] as? String ?? ""]
}

@Suite("SocketServer", .offCooperativePool)
struct SocketServerTests {
    @Test("greets, answers commands in order, and counts")
    func greetingAndReplies() throws {
        try withServer { server, handler, path in
            let c = try LineClient(path: path)
            #expect(c.nextLine() == #"{"class":"VERSION","proto_major":1}"#)
            c.sendRaw("echo one\r\necho two\n\n   \necho thr")
            c.sendRaw("ee\n")
            #expect(c.nextLine() == #"{"class":"ECHO","text":"one"}"#)
            #expect(c.nextLine() == #"{"class":"ECHO","text":"two"}"#)
            #expect(c.nextLine() == #"{"class":"ECHO","text":"three"}"#)
            c.sendRaw("frobnicate\n")
            #expect(c.nextLine() == #"{"class":"ERROR","message":"unknown command: frobnicate"}"#)
            let counters = server.counters
            #expect(counters.clients == 1)
            #expect(counters.accepted == 1)
            #expect(counters.linesIn == 4)
            #expect(counters.linesOut == 5)
            #expect(handler.lines.withLock { $0 } == ["echo one", "echo two", "echo three", "frobnicate"])
        }
    }

    @Test("a 1 MiB line, invalid UTF-8 and garbage get ERROR lines; the client and others carry on")
    func hostileInput() throws {
        try withServer { server, _, path in
            let bystander = try LineClient(path: path)
            _ = bystander.nextLine()
            bystander.sendRaw("watch\n")
            #expect(bystander.nextLine() == #"{"class":"WATCH","enable":true}"#)

            let c = try LineClient(path: path)
            _ = c.nextLine()
            // 1 MiB without a newline, then the newline and a real command in the same stream.
            var big = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20)
            big.append(contentsOf: Array("\necho after\n".utf8))
            c.sendRaw(bytes: big)
            #expect(errorFields(c.nextLine()) == ["too_large", "line too long: over 65536 bytes; the line was discarded"])
            #expect(c.nextLine() == #"{"class":"ECHO","text":"after"}"#)

            c.sendRaw(bytes: [0x65, 0x63, 0x68, 0x6F, 0x20, 0xC3, 0x28, 0xFF, 0x0A])  // "echo " + invalid bytes
            #expect(errorFields(c.nextLine()) == ["bad_json", "invalid UTF-8 in line; the line was discarded"])
            c.sendRaw(bytes: [0, 1, 2, 0x7B, 0x0A])
            #expect(c.nextLine()?.hasPrefix(#"{"class":"ERROR""#) == true)
            c.sendRaw("echo still here\n")
            #expect(c.nextLine() == #"{"class":"ECHO","text":"still here"}"#)

            // A line of exactly the limit is accepted (the handler sees it).
            c.sendRaw("echo " + String(repeating: "y", count: 65536 - 5) + "\n")
            #expect(c.nextLine()?.count == 65536 - 5 + #"{"class":"ECHO","text":""}"#.count)

            server.broadcast(line: #"{"class":"GPS","state":"fix"}"#, filter: .watchers(className: "GPS", targetID: nil))
            #expect(bystander.nextLine() == #"{"class":"GPS","state":"fix"}"#)
            #expect(server.counters.refused == 2)
            #expect(server.counters.clients == 2)
        }
    }

    @Test("broadcast filters by watch state, class and target")
    func subscriptions() throws {
        try withServer { server, _, path in
            let all = try LineClient(path: path), some = try LineClient(path: path), none = try LineClient(path: path)
            for c in [all, some, none] { _ = c.nextLine() }
            all.sendRaw("watch\n")
            some.sendRaw("watch ARRIVED,GPS banana\n")
            _ = all.nextLine(); _ = some.nextLine()
            let lines = [
                (#"{"class":"PROXIMITY","id":"banana"}"#, BroadcastFilter.watchers(className: "PROXIMITY", targetID: "banana")),
                (#"{"class":"ARRIVED","id":"pineapple"}"#, .watchers(className: "ARRIVED", targetID: "pineapple")),
                (#"{"class":"ARRIVED","id":"banana"}"#, .watchers(className: "ARRIVED", targetID: "banana")),
                (#"{"class":"GPS"}"#, .watchers(className: "GPS", targetID: nil)),
                (#"{"class":"NOTICE"}"#, .everyone),
            ]
            var reached: [Int] = []
            for (line, filter) in lines { reached.append(server.broadcast(line: line, filter: filter)) }
            #expect(reached == [1, 1, 2, 2, 3])
            #expect((0..<5).compactMap { _ in all.nextLine() } == lines.map(\.0))
            #expect((0..<3).compactMap { _ in some.nextLine() } ==
                    [#"{"class":"ARRIVED","id":"banana"}"#, #"{"class":"GPS"}"#, #"{"class":"NOTICE"}"#])
            #expect(none.nextLine() == #"{"class":"NOTICE"}"#)

            let event = Event.arrived(.init(time: Date(timeIntervalSince1970: 0),
                                            target: TargetRef(id: "banana", name: "Big Banana", kind: .bigThing),
                                            distance: 12))
            #expect(BroadcastFilter(event) == .watchers(className: "ARRIVED", targetID: "banana"))
            #expect(server.broadcast(line: EventMessage(event).line, filter: BroadcastFilter(event)) == 2)
            #expect(some.nextLine() == EventMessage(event).line)
        }
    }

    @Test("256 clients receive every event while one that never reads is dropped with a reason")
    func slowClientIsDropped() throws {
        var options = quietOptions()
        options.queueLimitBytes = 64 * 1024
        options.dropGrace = .seconds(60)
        options.maxClientsPerUser = 1024   // 257 connections of this one uid
        try withServer(options: options) { server, handler, path in
            let readers = try (0..<256).map { _ in try LineClient(path: path) }
            let stalled = try LineClient(path: path, receiveBuffer: 4096)
            #expect(eventually { server.counters.clients == 257 })
            for info in server.clients { server.setWatch(client: info.id, Subscription(watching: true)) }

            // One thread reads all 256 readers, checking each gets seq 0, 1, 2, … in order.
            let reader = SequenceReader(fds: readers.map(\.fd))
            defer { reader.finish() }

            // 400 lines of ~1.2 KB (~480 KB): well past the stalled client's 64 KiB queue plus
            // what the kernel buffers for it (~210 KB send side, 4 KiB receive side).
            let pad = String(repeating: "p", count: 1200)
            let batches = 8, perBatch = 50
            var callTimes: [Duration] = []
            for b in 0..<batches {
                for k in 0..<perBatch {
                    let seq = b * perBatch + k
                    let line = #"{"class":"PROXIMITY","seq":\#(seq),"pad":"\#(pad)"}"#
                    let t0 = ContinuousClock.now
                    server.broadcast(line: line, filter: .watchers(className: "PROXIMITY", targetID: nil))
                    callTimes.append(ContinuousClock.now - t0)
                }
                let want = (b + 1) * perBatch
                let complete = eventually(.seconds(120)) { reader.all(reached: want) }
                let where_ = reader.behind(want)
                #expect(complete, "batch \(b): \(where_)")
                if !complete { break }
            }
            #expect(reader.faults.withLock { $0 } == [])
            #expect(server.counters.dropped == 1)

            // The stalled client, reading at last, gets what was queued and then the reason.
            let rest = stalled.readToEnd()
            #expect(errorFields(rest.last) == ["busy", "dropped: client not reading (queue full)"])
            #expect(stalled.sawEOF)
            #expect(eventually { server.counters.clients == 256 })
            #expect(handler.gone.withLock { $0.map(\.1) } == ["dropped: client not reading (queue full)"])

            let sorted = callTimes.sorted()
            let p50 = sorted[sorted.count / 2], p99 = sorted[sorted.count * 99 / 100], worst = sorted.last!
            print("FIGURES broadcast to 257 clients: p50 \(p50), p99 \(p99), max \(worst) over \(sorted.count) calls")
        }
    }

    @Test("a client that half-closes still gets its replies, and events while watching")
    func halfClose() throws {
        try withServer { server, _, path in
            let c = try LineClient(path: path)
            c.sendRaw("echo hi\nwatch\n")
            c.shutdownWrite()
            #expect(c.nextLine() == #"{"class":"VERSION","proto_major":1}"#)
            #expect(c.nextLine() == #"{"class":"ECHO","text":"hi"}"#)
            #expect(c.nextLine() == #"{"class":"WATCH","enable":true}"#)
            #expect(eventually { server.broadcast(line: "{}", filter: .watchers(className: "GPS", targetID: nil)) == 1 })
            #expect(c.nextLine() == "{}")

            let d = try LineClient(path: path)
            d.sendRaw("echo bye\n")
            d.shutdownWrite()
            #expect(d.readToEnd() == [#"{"class":"VERSION","proto_major":1}"#, #"{"class":"ECHO","text":"bye"}"#])
        }
    }

    @Test("disconnect sends the reason then closes")
    func disconnectWithReason() throws {
        try withServer { _, _, path in
            let c = try LineClient(path: path)
            c.sendRaw("quit\n")
            let lines = c.readToEnd()
            #expect(lines.first == #"{"class":"VERSION","proto_major":1}"# && lines.count == 2)
            #expect(errorFields(lines.last) == ["busy", "bye"])
        }
    }

    @Test("peer credentials of an in-process client")
    func peerCredentialsSelf() throws {
        try withServer { server, _, path in
            let c = try LineClient(path: path)
            c.sendRaw("whoami\n")
            _ = c.nextLine()
            let me = try #require(c.nextLine())
            #expect(me == #"{"class":"WHOAMI","pid":\#(getpid()),"uid":\#(getuid()),"gid":\#(getgid()),"user":"\#(String(cString: getpwuid(getuid()).pointee.pw_name))"}"#)
            let info = try #require(server.clients.first)
            #expect(PeerAuthorisation.isAuthorised(info, allowedUsers: [], allowedGroups: []))
        }
    }

    @Test("peer credentials of another user's process (setpriv + socat as nobody)",
          .enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
                   && FileManager.default.isExecutableFile(atPath: "/usr/bin/socat")))
    func peerCredentialsNobody() throws {
        try withServer(mode: 0o666) { server, handler, path in
            let r = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/setpriv"),
                                       ["--reuid=65534", "--regid=65534", "--clear-groups",
                                        "/usr/bin/socat", "-t", "5", "-", "UNIX-CONNECT:\(path)"],
                                       input: Data("whoami\n".utf8))
            #expect(r.status == 0, "\(r.stderr)")
            let user = String(cString: getpwuid(65534).pointee.pw_name)
            #expect(r.stdout.contains(#""uid":65534,"gid":65534,"user":"\#(user)""#), "\(r.stdout)")
            let info = try #require(handler.clients.withLock { $0.first })
            #expect(info.uid == 65534 && info.pid > 0 && info.pid != getpid())
            let group = String(cString: getgrgid(65534).pointee.gr_name)
            let own = PeerAuthorisation(allowedUsers: [], allowedGroups: [], ownUID: 12345)
            #expect(!own.isAuthorised(info))
            #expect(PeerAuthorisation(allowedUsers: [user], ownUID: 12345).isAuthorised(info))
            #expect(PeerAuthorisation(allowedUsers: ["65534"], ownUID: 12345).isAuthorised(info))
            #expect(PeerAuthorisation(allowedGroups: [group], ownUID: 12345).isAuthorised(info))
            #expect(!PeerAuthorisation(allowedUsers: ["root"], allowedGroups: ["root"], ownUID: 12345).isAuthorised(info))
            _ = server
        }
    }

    @Test("a supplementary group (from the group database) authorises its members")
    func supplementaryGroups() throws {
        // Find a user listed as a member of a group that is not its primary group.
        let groupFile = (try? String(contentsOfFile: "/etc/group", encoding: .utf8)) ?? ""
        var found: (user: String, uid: UInt32, gid: UInt32, group: String)?
        for line in groupFile.split(separator: "\n") {
            let f = line.split(separator: ":", omittingEmptySubsequences: false)
            guard f.count == 4, let gid = UInt32(f[2]) else { continue }
            for member in f[3].split(separator: ",") {
                if let pw = getpwnam(String(member)), pw.pointee.pw_gid != gid, pw.pointee.pw_uid != 0 {
                    found = (String(member), pw.pointee.pw_uid, pw.pointee.pw_gid, String(f[0]))
                }
            }
        }
        guard let found else { return }  // no such user on this machine
        // The group comes from the kernel's record of the process (SO_PEERGROUPS), never the database.
        let gid = try #require(getgrnam(found.group)).pointee.gr_gid
        let client = ClientInfo(id: ClientID(rawValue: 1), pid: 1, uid: found.uid, gid: found.gid, groups: [gid], userName: found.user)
        #expect(PeerAuthorisation(allowedGroups: [found.group], ownUID: 12345).isAuthorised(client))
        let dropped = ClientInfo(id: ClientID(rawValue: 3), pid: 1, uid: found.uid, gid: found.gid, groups: [], userName: found.user)
        #expect(!PeerAuthorisation(allowedGroups: [found.group], ownUID: 12345).isAuthorised(dropped))
        #expect(!PeerAuthorisation(allowedGroups: ["root"], ownUID: 12345).isAuthorised(client))
        let root = ClientInfo(id: ClientID(rawValue: 2), pid: 1, uid: 0, gid: 0, userName: "root")
        #expect(PeerAuthorisation(ownUID: 12345).isAuthorised(root))
    }

    @Test("binding: creates the directory, sets the mode, replaces a stale socket, refuses a live one or a file, removes its file")
    func binding() throws {
        let dir = try TemporaryDirectory("hotcold-bind")
        defer { dir.remove() }
        let path = dir.path("a/b/hotcold.sock")
        let s1 = try SocketServer(endpoint: .path(path, mode: 0o660), options: quietOptions())
        try s1.start(handler: RecordingHandler())
        var st = stat()
        #expect(lstat(path, &st) == 0)
        #expect(st.st_mode & 0o7777 == 0o660)
        #expect(st.st_mode & S_IFMT == S_IFSOCK)
        #expect(s1.createdSocketFile)
        // Bound and listening under a private name, then linked into place: nothing else is left.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path("a/b")) == ["hotcold.sock"])
        #expect(throws: SocketServerError.self) { try SocketServer(endpoint: .path(path), options: quietOptions()) }
        s1.shutdown()
        #expect(lstat(path, &st) != 0)

        // A stale socket (bound, never listening, its server gone) is replaced.
        let stale = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        let addr = try #require(UnixSocketAddress(path))
        #expect(addr.withSockaddr { Glibc.bind(stale, $0, $1) } == 0)
        close(stale)
        let s2 = try SocketServer(endpoint: .path(path, mode: 0o600), options: quietOptions())
        try s2.start(handler: RecordingHandler())
        let c = try LineClient(path: path)
        #expect(c.nextLine() == #"{"class":"VERSION","proto_major":1}"#)
        s2.shutdown()
        #expect(c.nextLine() == nil && c.sawEOF)

        // A regular file is never replaced.
        _ = FileManager.default.createFile(atPath: path, contents: Data("precious".utf8))
        #expect(throws: SocketServerError.self) { try SocketServer(endpoint: .path(path), options: quietOptions()) }
        #expect((try? String(contentsOfFile: path, encoding: .utf8)) == "precious")

        // Too long for sun_path.
        #expect(throws: SocketServerError.self) {
            try SocketServer(endpoint: .path("/tmp/" + String(repeating: "n", count: 120)), options: quietOptions())
        }
    }

    @Test("shutdown flushes queued lines, closes clients and removes the socket file")
    func shutdownFlushes() throws {
        let dir = try TemporaryDirectory("hotcold-stop")
        defer { dir.remove() }
        let path = dir.path("s.sock")
        let server = try SocketServer(endpoint: .path(path), options: quietOptions())
        let handler = RecordingHandler()
        handler.attach(server)
        try server.start(handler: handler)
        let c = try LineClient(path: path)
        c.sendRaw("watch\n")
        _ = c.nextLine(); _ = c.nextLine()
        for i in 0..<100 { server.broadcast(line: #"{"n":\#(i)}"#, filter: .everyone) }
        server.shutdown()
        let lines = c.readToEnd()
        #expect(lines.count == 100 && lines.last == #"{"n":99}"#)
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(server.counters.clients == 0)
        #expect(handler.gone.withLock { $0.map(\.1) } == ["server shutting down"])
        server.shutdown()  // idempotent
        #expect(server.broadcast(line: "{}", filter: .everyone) == 0)
    }
}

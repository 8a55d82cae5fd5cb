import Foundation
import Glibc
import HotColdCore
@testable import HotColdProtocol
import HotColdTestSupport
import Synchronization
import HotColdDaemonTesting
import Testing
@testable import HotColdDaemon

/// What one client may take from the socket: one command answered off the loop at a time,
/// a number of connections per user, a write rate per user; and the loop never waits on the
/// name service.
@Suite("Socket limits", .offCooperativePool)
struct SocketLimitsTests {
    @Test("a client with a reply outstanding is not read; others are answered; replies keep their order")
    func heldClientWaits() throws {
        try withServer { server, handler, path in
            let a = try LineClient(path: path), b = try LineClient(path: path)
            _ = a.nextLine(); _ = b.nextLine()
            a.sendRaw("hold first\necho second\necho third\n")
            b.sendRaw("echo from b\n")
            #expect(b.nextLine() == #"{"class":"ECHO","text":"from b"}"#)
            // a's later lines stay unread while its first is being answered.
            #expect(eventually { handler.lines.withLock { $0.contains("hold first") } })
            #expect(!handler.lines.withLock { $0.contains("echo second") })
            b.sendRaw("release\n")
            #expect(b.nextLine() == #"{"class":"RELEASED"}"#)
            #expect(a.nextLine() == #"{"class":"HELD","text":"first"}"#)
            #expect(a.nextLine() == #"{"class":"ECHO","text":"second"}"#)
            #expect(a.nextLine() == #"{"class":"ECHO","text":"third"}"#)
            _ = server
        }
    }

    @Test("5,000 pipelined commands answered off the loop: one in flight, all in order, a bystander served")
    func pipelinedDeferred() throws {
        try withServer { _, handler, path in
            let a = try LineClient(path: path), bystander = try LineClient(path: path)
            _ = a.nextLine(); _ = bystander.nextLine()
            let n = 5000
            let text = (0..<n).map { "later \($0)\n" }.joined()
            let sender = Thread { a.sendRaw(text) }
            sender.start()
            bystander.sendRaw("echo still here\n")
            #expect(bystander.nextLine() == #"{"class":"ECHO","text":"still here"}"#)
            var got: [String] = []
            while got.count < n, let l = a.nextLine() { got.append(l) }
            #expect(got == (0..<n).map { #"{"class":"LATER","text":"\#($0)"}"# })
            #expect(handler.maxInFlight.withLock { $0 } == 1)
        }
    }

    @Test("a user over its connection cap is refused at accept; a closed connection frees a place")
    func perUserConnectionCap() throws {
        var o = quietOptions()
        o.maxClientsPerUser = 3
        try withServer(options: o, mode: 0o666) { server, _, path in
            var held = try (0..<3).map { _ in try LineClient(path: path) }
            for c in held { #expect(c.nextLine() == #"{"class":"VERSION","proto_major":1}"#) }
            let fourth = try LineClient(path: path)
            let refusal = fourth.readToEnd()
            #expect(refusal.count == 1)
            #expect(errorFields(refusal.first) == ["quota", "too many connections from uid \(getuid()) (at most 3 per user, socket.max_clients_per_user); close some and try again"])
            #expect(server.counters.connectionsRefused == 1)
            // Another uid is not affected (nobody, through setpriv and socat).
            if UnixAccounts.available, FileManager.default.isExecutableFile(atPath: "/usr/bin/socat") {
                let r = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/setpriv"),
                                           ["--reuid=65534", "--regid=65534", "--clear-groups",
                                            "/usr/bin/socat", "-t", "5", "-", "UNIX-CONNECT:\(path)"],
                                           input: Data("echo nobody\n".utf8))
                #expect(r.stdout.contains(#"{"class":"ECHO","text":"nobody"}"#), "\(r.stdout) \(r.stderr)")
            }
            held.removeLast()
            #expect(eventually { server.counters.clients == 2 })
            let again = try LineClient(path: path)
            #expect(again.nextLine() == #"{"class":"VERSION","proto_major":1}"#)
        }
    }

    @Test("writes beyond the user's burst are refused as busy, across its connections")
    func writeRate() throws {
        var o = quietOptions()
        o.writeBurst = 3
        o.writesPerSecond = 0.5
        try withServer(options: o) { server, _, path in
            let a = try LineClient(path: path), b = try LineClient(path: path)
            _ = a.nextLine(); _ = b.nextLine()
            a.sendRaw("write\nwrite\n")
            b.sendRaw("write\nwrite\n")
            let replies = [a.nextLine(), a.nextLine(), b.nextLine(), b.nextLine()]
            #expect(replies.filter { $0 == #"{"class":"WROTE"}"# }.count == 3)
            let busy = try #require(replies.first { $0?.contains("over the write rate") == true } ?? nil)
            #expect(busy.contains("is over the write rate of 3 at once and 0.5 per second (socket.write_burst, socket.writes_per_second); try again in"))
            #expect(server.counters.writesRefused == 1)
        }
    }

    @Test("a slow name service delays only the new client's greeting, never the loop")
    func slowNameLookup() throws {
        guard UnixAccounts.available, FileManager.default.isExecutableFile(atPath: "/usr/bin/socat") else { return }
        var o = quietOptions()
        o.nameLookup = { uid in
            if uid == 65534 { usleep(1_500_000) }
            return PeerCredentials.recordName(uid: uid)
        }
        try withServer(options: o, mode: 0o666) { server, handler, path in
            let root = try LineClient(path: path)
            _ = root.nextLine()
            let slow = Thread {
                _ = try? Subprocess.run(URL(fileURLWithPath: "/usr/bin/setpriv"),
                                        ["--reuid=65534", "--regid=65534", "--clear-groups",
                                         "/usr/bin/socat", "-t", "5", "-", "UNIX-CONNECT:\(path)"],
                                        input: Data("echo late\n".utf8))
            }
            slow.start()
            #expect(eventually { server.counters.accepted == 2 })
            root.sendRaw("echo meanwhile\n")
            #expect(root.nextLine() == #"{"class":"ECHO","text":"meanwhile"}"#)
            // Answered while nobody's lookup still sleeps: not yet greeted.
            #expect(!handler.clients.withLock { $0.contains { $0.uid == 65534 } })
            #expect(eventually { handler.clients.withLock { $0.contains { $0.uid == 65534 } } })
        }
    }

    @Test("groups come from the connecting process, not the group database",
          .enabled(if: UnixAccounts.available && FileManager.default.isExecutableFile(atPath: "/usr/bin/socat")))
    func kernelGroups() throws {
        let accounts = UnixAccounts()
        defer { accounts.remove() }
        let group = try accounts.group("hcg")
        let user = try accounts.user("hcgu", groups: [group])
        let gid = try #require(getgrnam(group)).pointee.gr_gid
        try withServer(mode: 0o666) { _, handler, path in
            func connect(_ groupArg: String) throws -> ClientInfo {
                let before = handler.clients.withLock { $0.count }
                let r = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/setpriv"),
                                           ["--reuid=\(user.uid)", "--regid=\(user.gid)", groupArg,
                                            "/usr/bin/socat", "-t", "5", "-", "UNIX-CONNECT:\(path)"],
                                           input: Data("whoami\n".utf8))
                #expect(r.stdout.contains(#""user":"\#(user.name)""#), "\(r.stdout) \(r.stderr)")
                return try #require(handler.clients.withLock { $0.count > before ? $0.last : nil })
            }
            let policy = PeerAuthorisation(allowedGroups: [group], ownUID: 12345)
            // The group database lists the user in the group, but this process dropped it.
            let cleared = try connect("--clear-groups")
            #expect(cleared.groups.isEmpty && !policy.isAuthorised(cleared))
            let holding = try connect("--init-groups")
            #expect(holding.groups.contains(gid) && policy.isAuthorised(holding))
        }
    }

    @Test("the client cap stays below the open-file limit")
    func descriptorBudget() {
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        let cap = DescriptorBudget.clientCap(requested: Int.max, reserve: 128)
        #expect(UInt64(cap) <= limit.rlim_cur - 64)
        #expect(DescriptorBudget.clientCap(requested: 10, reserve: 128) == 10)
        // The unit's LimitNOFILE= leaves the reserve above the default cap.
        let unit = (try? String(contentsOf: TestData.repo("systemd/hotcoldd.service"), encoding: .utf8)) ?? ""
        let nofile = unit.split(separator: "\n").first { $0.hasPrefix("LimitNOFILE=") }.flatMap { Int($0.dropFirst(12)) }
        let o = SocketServerOptions()
        #expect((nofile ?? 0) >= o.maxClients + o.descriptorReserve)
    }

    @Test("token bucket: a burst, then the rate")
    func tokenBucket() {
        var b = TokenBucket(burst: 20, perSecond: 5, now: .zero)
        for _ in 0..<20 { #expect(b.take(now: .zero) == nil) }
        #expect(b.take(now: .zero) == .milliseconds(200))
        #expect(b.take(now: .milliseconds(100)) == .milliseconds(100))
        #expect(b.take(now: .milliseconds(200)) == nil)
        #expect(!b.isFull(now: .seconds(3)))
        #expect(b.isFull(now: .seconds(5)))
    }

    @Test("line framer: lines across reads, CR LF, over-long lines, and lines left for later")
    func framer() {
        var f = LineFramer(maxLineBytes: 8)
        func add(_ s: String) { Array(s.utf8).withUnsafeBytes { f.append($0) } }
        add("ab\r\ncd")
        #expect(f.next() == .line(Array("ab".utf8)))
        #expect(f.next() == nil)
        add("e\n0123456789")
        #expect(f.next() == .line(Array("cde".utf8)))
        #expect(f.next() == .tooLong)
        #expect(f.buffered == 0)
        add("more\nok\nnext\n")
        #expect(f.next() == .line(Array("ok".utf8)))
        // Left in the framer until asked for.
        #expect(f.buffered == 5)
        #expect(f.next() == .line(Array("next".utf8)))
        add("12345678\n123456789\n")
        #expect(f.next() == .line(Array("12345678".utf8)))
        #expect(f.next() == .tooLong)
        #expect(f.next() == nil)
    }
}

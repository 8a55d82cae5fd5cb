import Foundation
import Glibc
@testable import HotColdProtocol
import HotColdTestSupport
import HotColdDaemonTesting
import Testing
@testable import HotColdDaemon

@Suite("SocketActivation", .offCooperativePool, .serialized)
struct SocketActivationTests {
    /// A listening Unix socket as systemd would pass it (blocking, inheritable).
    func listeningSocket(_ path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard let a = UnixSocketAddress(path), a.withSockaddr({ bind(fd, $0, $1) }) == 0, listen(fd, 16) == 0 else {
            throw TestError("listen \(path): \(String(cString: strerror(errno)))")
        }
        return fd
    }

    @Test("parses LISTEN_FDS/LISTEN_PID/LISTEN_FDNAMES, sets CLOEXEC, and the server adopts the socket")
    func adoptActivatedSocket() throws {
        let dir = try TemporaryDirectory("hotcold-act")
        defer { dir.remove() }
        let path = dir.path("hotcold.sock")
        let fd = try listeningSocket(path)
        #expect(fcntl(fd, F_GETFD) & FD_CLOEXEC == 0)
        let env = ["LISTEN_FDS": "1", "LISTEN_PID": "\(getpid())", "LISTEN_FDNAMES": "hotcoldd.socket"]
        let fds = try SocketActivation.listenFDs(environment: env, pid: getpid(), first: fd)
        #expect(fds == [ActivatedSocket(fd: fd, name: "hotcoldd.socket")])
        #expect(fcntl(fd, F_GETFD) & FD_CLOEXEC != 0)
        #expect(fds[0].isUnixStreamListener && fds[0].unixPath == path)

        let server = try SocketServer(endpoint: .adopted(fd: fds[0].fd), options: quietOptions())
        #expect(!server.createdSocketFile && server.path == path)
        try server.start(handler: RecordingHandler())
        let c = try LineClient(path: path)
        #expect(c.nextLine() == #"{"class":"VERSION","proto_major":1}"#)
        server.shutdown()
        #expect(c.readToEnd().isEmpty && c.sawEOF)
        #expect(FileManager.default.fileExists(atPath: path))   // systemd's file: left alone
    }

    @Test("other processes' variables and bad values")
    func otherPidAndErrors() throws {
        #expect(try SocketActivation.listenFDs(environment: ["LISTEN_FDS": "1", "LISTEN_PID": "1"], pid: 2) == [])
        #expect(try SocketActivation.listenFDs(environment: [:], pid: 2) == [])
        #expect(throws: SocketActivationError.self) {
            try SocketActivation.listenFDs(environment: ["LISTEN_FDS": "two", "LISTEN_PID": "2"], pid: 2)
        }
        #expect(throws: SocketActivationError.self) {
            try SocketActivation.listenFDs(environment: ["LISTEN_FDS": "1", "LISTEN_PID": "-4"], pid: 2)
        }
        // A descriptor that is not open is an error, not a crash later.
        #expect(throws: SocketActivationError.self) {
            try SocketActivation.listenFDs(environment: ["LISTEN_FDS": "1", "LISTEN_PID": "2"], pid: 2, first: 100_000)
        }
        // Names missing or miscounted: "unknown".
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(fd) }
        let got = try SocketActivation.listenFDs(environment: ["LISTEN_FDS": "1", "LISTEN_PID": "2", "LISTEN_FDNAMES": "a:b"],
                                                 pid: 2, first: fd)
        #expect(got == [ActivatedSocket(fd: fd, name: "unknown")])
        #expect(!got[0].isUnixStreamListener)
        #expect(throws: SocketServerError.self) { try SocketServer(endpoint: .adopted(fd: fd)) }
    }

    @Test("the process-environment form unsets the variables")
    func unsetsEnvironment() throws {
        setenv("LISTEN_PID", "\(getpid())", 1)
        setenv("LISTEN_FDS", "0", 1)
        setenv("LISTEN_FDNAMES", "", 1)
        #expect(try SocketActivation.listenFDs() == [])
        #expect(getenv("LISTEN_PID") == nil && getenv("LISTEN_FDS") == nil && getenv("LISTEN_FDNAMES") == nil)
    }
}

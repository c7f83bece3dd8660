import Localization
import Syscall
#if canImport(Glibc)
import Glibc
#endif

/// The few AF_UNIX stream-socket calls the control socket needs, in one
/// funnel (docs/design.md, habit 4): each failure becomes a `UnixSocket.Failure` naming the call.
///
/// Only AF_UNIX is ever created here: the agent must never own an internet
/// socket (docs/design.md, "The privacy claim is the architecture").
public enum UnixSocket {
    /// A failed call, with its errno.
    public struct Failure: Error, CustomStringConvertible {
        public var call: String
        public var code: Int32

        public init(call: String, code: Int32) {
            self.call = call
            self.code = code
        }
        public var description: String { "\(call): \(String(cString: strerror(code)))" }
    }

    /// The longest path `sockaddr_un.sun_path` holds (with its terminating NUL).
    public static let maximumPathLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// Calls `body` with `path` as a `sockaddr_un`.
    public static func withAddress<T>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> T) throws -> T {
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty, bytes.count <= maximumPathLength else {
            throw Failure(call: tr("socket path of \(bytes.count) bytes (at most \(maximumPathLength))"), code: ENAMETOOLONG)
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }

    /// A new close-on-exec AF_UNIX stream socket.
    public static func makeStream() throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure(call: "socket(AF_UNIX)", code: errno) }
        return fd
    }

    /// A connected socket to `path`. A listener whose queue is full (a
    /// stopped or stuck agent) fails the connect with `EAGAIN` after
    /// `timeout` seconds (a blocking AF_UNIX connect waits `SO_SNDTIMEO`),
    /// never waiting for ever; the send timeout is left for the caller to set.
    public static func connect(to path: String, timeout: Int = 5) throws -> Int32 {
        let fd = try makeStream()
        setTimeout(fd, option: SO_SNDTIMEO, seconds: timeout)
        let result = try withAddress(path) { Glibc.connect(fd, $0, $1) }
        guard result == 0 else {
            let code = errno
            close(fd)
            throw Failure(call: "connect(\(path))", code: code)
        }
        return fd
    }

    /// The uid of the process at the other end (`SO_PEERCRED`).
    public static func peerUID(_ fd: Int32) -> uid_t? {
        // Glibc declares `struct ucred` only under _GNU_SOURCE, which Swift's
        // import does not set: the same layout (pid, uid, gid) by hand.
        var credentials: (pid: Int32, uid: UInt32, gid: UInt32) = (0, 0, 0)
        var length = socklen_t(MemoryLayout.size(ofValue: credentials))
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0,
              Int(length) == MemoryLayout.size(ofValue: credentials) else { return nil }
        return credentials.uid
    }

    /// Marks `fd` close-on-exec, so no program the process starts inherits it.
    /// (`accept4` and `pipe2` are GNU extensions Swift's Glibc import hides.)
    public static func setCloseOnExec(_ fd: Int32) {
        _ = fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC)
    }

    /// Sets a send or receive timeout (`SO_SNDTIMEO`, `SO_RCVTIMEO`).
    public static func setTimeout(_ fd: Int32, option: Int32, seconds: Int) {
        var value = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, option, &value, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Writes all of `bytes`; false when the peer is gone (or, with
    /// `nonBlocking`, too slow to take it now). Never raises SIGPIPE.
    public static func sendAll(_ fd: Int32, _ bytes: [UInt8], nonBlocking: Bool = false) -> Bool {
        let flags = Int32(MSG_NOSIGNAL) | (nonBlocking ? Int32(MSG_DONTWAIT) : 0)
        return bytes.withUnsafeBytes { raw -> Bool in
            var offset = 0
            while offset < raw.count {
                guard case .success(let sent) = Syscall.send(fd, UnsafeRawBufferPointer(rebasing: raw[offset...]), flags: flags) else {
                    return false
                }
                offset += sent
            }
            return true
        }
    }
}

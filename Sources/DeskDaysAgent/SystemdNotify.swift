import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The `sd_notify` protocol without libsystemd: a datagram to the AF_UNIX
/// socket systemd names in `$NOTIFY_SOCKET` (a path, or `@name` for the
/// abstract namespace). Outside systemd it does nothing.
public struct SystemdNotify: Sendable {
    let socketPath: String?
    /// Half of `$WATCHDOG_USEC`: how often to tell systemd we are alive.
    public let watchdogInterval: Duration?

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let path = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        socketPath = path
        if path != nil, let text = environment["WATCHDOG_USEC"], let usec = Int64(text), usec > 0,
           environment["WATCHDOG_PID"].map({ $0 == String(getpid()) }) ?? true {
            watchdogInterval = .microseconds(usec / 2)
        } else {
            watchdogInterval = nil
        }
    }

    /// Sends `state` (e.g. `READY=1`, `WATCHDOG=1`, `STOPPING=1`); false when it could not.
    @discardableResult
    public func send(_ state: String) -> Bool {
        guard let socketPath else { return false }
        var bytes = Array(socketPath.utf8)
        // Abstract socket: a leading NUL instead of '@', and the length counts exactly the name.
        let abstract = bytes.first == UInt8(ascii: "@")
        if abstract { bytes[0] = 0 }
        guard bytes.count < MemoryLayout.size(ofValue: sockaddr_un().sun_path) else { return false }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (abstract ? 0 : 1))
        let payload = Array(state.utf8)
        let sent = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                sendto(fd, payload, payload.count, Int32(MSG_NOSIGNAL), $0, length)
            }
        }
        return sent == payload.count
    }
}

import CNetlink

/// A libnl return code (`NLE_*`, positive), named after the call that
/// failed, described by libnl's own `nl_geterror` (STYLE.md 3).
public struct LibNLError: Error, Equatable, Sendable, CustomStringConvertible {
    public let call: String
    public let code: Int32

    init(_ call: String, _ result: Int32) {
        self.call = call
        code = result < 0 ? -result : result
    }

    public static let objectNotFound = Int32(NLE_OBJ_NOTFOUND)
    public static let permission = Int32(NLE_PERM)
    public static let notSupported = Int32(NLE_OPNOTSUPP)
    public static let afNotSupported = Int32(NLE_AF_NOSUPPORT)
    public static let outOfMemory = Int32(NLE_NOMEM)

    public var description: String { "\(call): " + String(cString: nl_geterror(code)) }
}

/// Why the adapter cannot work on this machine. Reported once; the adapter
/// then waits without waking (see `WiFiCheckInAdapter`).
public enum WiFiUnavailable: Error, Sendable, CustomStringConvertible {
    /// AF_NETLINK itself is refused (a sandbox, a seccomp filter).
    case netlinkRefused(String)
    /// The kernel has no `nl80211` family: cfg80211 is not loaded, usually
    /// because there is no Wi-Fi hardware or driver.
    case noNL80211

    public var description: String {
        switch self {
        case .netlinkRefused(let why): "netlink is refused (\(why)); the agent needs AF_NETLINK for Wi-Fi"
        case .noNL80211: "no nl80211 in this kernel (no Wi-Fi device or cfg80211 not loaded)"
        }
    }
}

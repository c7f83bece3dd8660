import DeskDaysCore
import CNetlinkRoute

/// A libnl return code (`NLE_*`, positive), named after the call that
/// failed, described by libnl's own `nl_geterror` (docs/design.md, habit 3).
public struct RouteNetlinkError: Error, Equatable, Sendable, CustomStringConvertible {
    public let call: String
    public let code: Int32

    init(_ call: String, _ result: Int32) {
        self.call = call
        code = result < 0 ? -result : result
    }

    static let outOfMemory = Int32(NLE_NOMEM)

    public var description: String { "\(call): " + String(cString: nl_geterror(code)) }
}

/// Why the wired method cannot work here. Reported once; the adapter then
/// waits without waking.
public enum WiredUnavailable: Error, Sendable, CustomStringConvertible {
    /// AF_NETLINK itself is refused (a sandbox, a seccomp filter).
    case netlinkRefused(String)

    public var description: String {
        switch self {
        case .netlinkRefused(let why): tr("netlink is refused (\(why)); the agent needs AF_NETLINK for the wired method")
        }
    }
}

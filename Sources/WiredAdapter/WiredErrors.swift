import Localization
import DeskDaysCore
import CNetlinkRoute
import NetworkPresence
import NL80211

/// libnl's words for the wired adapter's errors (the type is NL80211's `LibNLError`).
extension LibNLError {
    init(_ call: String, _ result: Int32) {
        self.init(call, result) { String(cString: nl_geterror($0)) }
    }

    static let outOfMemory = Int32(NLE_NOMEM)
}

/// Why the wired method cannot work here. Reported once; the adapter then
/// waits without waking.
public enum WiredUnavailable: NetworkUnavailable, Sendable {
    /// AF_NETLINK itself is refused (a sandbox, a seccomp filter).
    case netlinkRefused(String)

    public var description: String {
        switch self {
        case .netlinkRefused(let why): tr("netlink is refused (\(why)); the agent needs AF_NETLINK for the wired method")
        }
    }
}

import Localization
import DeskDaysCore
import NetworkPresence

/// Why the adapter cannot work on this machine. Reported once; the adapter
/// then waits without waking (see `WiFiCheckInAdapter`).
public enum WiFiUnavailable: NetworkUnavailable, Sendable {
    /// AF_NETLINK itself is refused (a sandbox, a seccomp filter).
    case netlinkRefused(String)
    /// The kernel has no `nl80211` family: cfg80211 is not loaded, usually
    /// because there is no Wi-Fi hardware or driver.
    case noNL80211

    public var description: String {
        switch self {
        case .netlinkRefused(let why): tr("netlink is refused (\(why)); the agent needs AF_NETLINK for Wi-Fi")
        case .noNL80211: tr("no nl80211 in this kernel (no Wi-Fi device or cfg80211 not loaded)")
        }
    }
}

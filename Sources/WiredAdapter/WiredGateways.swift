import Wired

/// One-shot reads for `deskdays enroll wired` and `doctor`.
public enum WiredGateways {
    /// Every default gateway now, with its MAC where the kernel has resolved it.
    public static func current() throws -> [Gateway] {
        try RouteSocket().snapshot().gateways
    }
}

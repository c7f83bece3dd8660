import NL80211

/// One-shot reads for `deskdays enroll wifi` and `doctor`.
public enum WiFiLinks {
    /// The links of every connected station interface now.
    public static func current() throws -> [Link] {
        let socket = try NL80211Socket()
        let family = try socket.resolve(family: NL80211.familyName)
        return try LinkReader(socket: socket, family: family).links()
    }
}

import NL80211

/// What the device thread reports to the adapter.
enum LinkUpdate: Sendable {
    /// The links of every connected station interface, read just now.
    case links([Link])
    /// The adapter cannot work here (sent once; the thread then waits).
    case unavailable(WiFiUnavailable)
    /// A re-read failed; the previous links stand until the next event.
    case readFailed(String)
}

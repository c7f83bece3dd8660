/// Turns "this rule's code is in view" observations into sightings: a code
/// held in front of the camera for a minute is one sighting (docs/design.md: the
/// adapter owns debounce of its own signal). A rule is re-armed once its code
/// has been out of view for `rearmAfter` seconds. Time is passed in.
public struct SightingDebouncer: Sendable {
    public let rearmAfter: Double
    private var lastSeen: [String: Double] = [:]

    public init(rearmAfter: Double = 30) {
        self.rearmAfter = rearmAfter
    }

    /// Records that `rule` matched a code in a frame taken at `time` (seconds
    /// on a monotonic clock); true when this is a new sighting.
    public mutating func admit(_ rule: String, at time: Double) -> Bool {
        let previous = lastSeen[rule]
        lastSeen[rule] = time
        guard let previous else { return true }
        return time - previous > rearmAfter
    }
}

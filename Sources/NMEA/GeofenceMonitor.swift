/// Decides when the user has arrived inside a geofence, from a stream of
/// fixes, without flapping. A value-type state machine: time is the
/// receiver's, taken from each fix, never read from a clock here.
///
/// Per fence:
/// - outside → dwelling: a *good* fix within `radiusM`. A good fix is 2D
///   or 3D with a known horizontal error estimate of at most
///   `accuracyFraction` (½) of the radius. The estimate is the source's own
///   when it gives one (gpsd's `eph`, `Fix.horizontalErrorM`), else HDOP ×
///   `uereM` (5 m, a typical user-equivalent range error for a consumer
///   receiver): HDOP ≤ 15 for a 150 m fence. A fix with neither (RMC-only
///   receivers) is never good: its accuracy is unknown.
/// - dwelling → inside (one `.entered` event): a good fix within the radius
///   at least `dwellS` of receiver time after the first one. A good fix
///   beyond the radius first (a pass-by, or jitter across the edge) sends
///   it back outside; so does a stretch longer than `maximumDwellGapS`
///   with no good fix.
/// - inside → outside: only a good fix beyond `leaveRadiusM` (hysteresis),
///   which is a departure (one `.left` event, docs/policy.md "Time on
///   site"), or no good fix at all for `presenceTimeoutS` (the laptop slept
///   in the office overnight: the next morning is a new arrival), which is
///   not: nothing was seen leaving. Losing the fix indoors does not end a
///   presence.
///
/// Without a date in the fixes (GLL-only receivers) receiver time is the
/// time of day, unwrapped across UTC midnight.
public struct GeofenceMonitor: Sendable {
    public static let uereM = 5.0
    public static let accuracyFraction = 0.5
    public static let maximumDwellGapS = 60.0
    public static let presenceTimeoutS = 4.0 * 3600

    private enum Presence: Sendable, Equatable {
        case outside
        case dwelling(since: Double, lastGood: Double)
        case inside(lastGood: Double)
    }

    public let fences: [Geofence]
    private var presence: [Presence]
    private var lastSeconds: Double?

    public init(fences: [Geofence]) {
        self.fences = fences
        presence = Array(repeating: .outside, count: fences.count)
    }

    /// Names of the fences the user is inside now (after a completed dwell).
    public var insideFences: [String] {
        zip(fences, presence).compactMap { fence, state in
            if case .inside = state { return fence.name }
            return nil
        }
    }

    /// Feeds one fix; returns the fences entered or left with it (usually none).
    public mutating func update(_ fix: Fix) -> [GeofenceEvent] {
        guard let now = receiverSeconds(fix) else { return [] }
        var entries: [GeofenceEvent] = []
        for index in fences.indices {
            let fence = fences[index]
            let distance: Double? = isGood(fix, for: fence)
                ? fence.distanceM(latitude: fix.latitude!, longitude: fix.longitude!) : nil
            if let next = step(presence[index], fence: fence, distance: distance, now: now, entered: &entries) {
                presence[index] = next
            }
        }
        return entries
    }

    private func isGood(_ fix: Fix, for fence: Geofence) -> Bool {
        guard fix.hasPosition,
              let error = fix.horizontalErrorM ?? fix.hdop.map({ $0 * GeofenceMonitor.uereM }) else { return false }
        return error <= fence.radiusM * GeofenceMonitor.accuracyFraction
    }

    /// One fence's transition; nil means "unchanged".
    private func step(_ state: Presence, fence: Geofence, distance: Double?, now: Double,
                      entered: inout [GeofenceEvent]) -> Presence? {
        func arrive() -> Presence {
            if fence.dwellS <= 0 {
                entered.append(GeofenceEvent(name: fence.name, kind: .entered))
                return .inside(lastGood: now)
            }
            return .dwelling(since: now, lastGood: now)
        }
        let within = distance.map { $0 <= fence.radiusM } ?? false
        switch state {
        case .outside:
            return within ? arrive() : nil
        case .dwelling(let since, let lastGood):
            if now < lastGood || now - lastGood > GeofenceMonitor.maximumDwellGapS {
                // Receiver time went backwards or the fix was gone too long:
                // start over from this fix.
                return within ? arrive() : .outside
            }
            guard let distance else { return nil }
            if distance > fence.radiusM { return .outside }
            if now - since >= fence.dwellS {
                entered.append(GeofenceEvent(name: fence.name, kind: .entered))
                return .inside(lastGood: now)
            }
            return .dwelling(since: since, lastGood: now)
        case .inside(let lastGood):
            if now - lastGood > GeofenceMonitor.presenceTimeoutS {
                return within ? arrive() : .outside
            }
            guard let distance else { return nil }
            if distance > fence.leaveRadiusM {
                entered.append(GeofenceEvent(name: fence.name, kind: .left))
                return .outside
            }
            return .inside(lastGood: max(lastGood, now))
        }
    }

    private mutating func receiverSeconds(_ fix: Fix) -> Double? {
        guard let time = fix.time else { return nil }
        var seconds: Double
        if let absolute = fix.receiverSeconds {
            seconds = absolute
        } else if let last = lastSeconds {
            seconds = (last / 86_400).rounded(.down) * 86_400 + time.secondsOfDay
            if seconds < last - 43_200 { seconds += 86_400 }
        } else {
            seconds = time.secondsOfDay
        }
        lastSeconds = seconds
        return seconds
    }
}

/// The user arrived inside a geofence (its dwell completed) or left it
/// (beyond its leave radius): only its name, never a position.
public struct GeofenceEvent: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case entered, left
    }

    public let name: String
    public let kind: Kind

    public init(name: String, kind: Kind) {
        self.name = name
        self.kind = kind
    }
}

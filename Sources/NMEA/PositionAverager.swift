#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Averages the positions of valid fixes, for `enroll gps`: the mean of
/// unit vectors on the sphere, so it stays right across the antimeridian
/// and near the poles. Also tracks the span of receiver time covered.
public struct PositionAverager: Sendable {
    private var x = 0.0, y = 0.0, z = 0.0
    public private(set) var count = 0
    private var firstSeconds: Double?
    private var lastSeconds: Double?

    public init() {}

    /// Adds a fix; ignored unless it has a 2D/3D position.
    public mutating func add(_ fix: Fix) {
        guard fix.hasPosition, let latitude = fix.latitude, let longitude = fix.longitude else { return }
        let phi = latitude * .pi / 180, lambda = longitude * .pi / 180
        x += cos(phi) * cos(lambda)
        y += cos(phi) * sin(lambda)
        z += sin(phi)
        count += 1
        if let seconds = fix.receiverSeconds ?? fix.time?.secondsOfDay {
            if firstSeconds == nil { firstSeconds = seconds }
            if let last = lastSeconds, seconds < last, last - seconds > 43_200 {
                // Time of day wrapped past midnight without a date.
                lastSeconds = seconds + 86_400
            } else {
                lastSeconds = seconds
            }
        }
    }

    /// Seconds of receiver time between the first and the last valid fix.
    public var spanSeconds: Double {
        guard let firstSeconds, let lastSeconds else { return 0 }
        return max(0, lastSeconds - firstSeconds)
    }

    /// The mean position in degrees, nil before the first valid fix.
    public var mean: (latitude: Double, longitude: Double)? {
        guard count > 0 else { return nil }
        let horizontal = (x * x + y * y).squareRoot()
        return (atan2(z, horizontal) * 180 / .pi, atan2(y, x) * 180 / .pi)
    }
}

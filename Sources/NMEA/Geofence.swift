#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A circle on the WGS-84 ellipsoid, approximated as a sphere: the office.
public struct Geofence: Sendable, Hashable {
    /// The rule name reported in check-ins (never the coordinates).
    public var name: String
    public var latitude: Double
    public var longitude: Double
    /// Entering needs the position within this distance of the centre.
    public var radiusM: Double
    /// Leaving needs the position beyond this (larger) distance: the
    /// hysteresis band that keeps jitter at the edge from flapping.
    public var leaveRadiusM: Double
    /// Seconds of receiver time the position must stay inside.
    public var dwellS: Double

    /// `leaveRadiusM` defaults to 1.5 × radius, at least radius + 50 m
    /// (what `GPSSettings.Geofence` documents).
    public init(name: String, latitude: Double, longitude: Double, radiusM: Double,
                dwellS: Double, leaveRadiusM: Double? = nil) {
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
        self.radiusM = radiusM
        self.dwellS = dwellS
        self.leaveRadiusM = max(leaveRadiusM ?? max(radiusM * 1.5, radiusM + 50), radiusM)
    }

    /// Mean Earth radius (IUGG), metres. The spherical error (< 0.5 %) is
    /// far below a GPS receiver's own at these distances.
    static let earthRadiusM = 6_371_008.8

    /// Great-circle distance in metres (haversine: well conditioned at the
    /// short distances a geofence deals with, unlike the law of cosines).
    public static func distanceM(latitude1: Double, longitude1: Double,
                                 latitude2: Double, longitude2: Double) -> Double {
        let radians = Double.pi / 180
        let phi1 = latitude1 * radians, phi2 = latitude2 * radians
        let dPhi = (latitude2 - latitude1) * radians
        let dLambda = (longitude2 - longitude1) * radians
        let sinPhi = sin(dPhi / 2), sinLambda = sin(dLambda / 2)
        let a = sinPhi * sinPhi + cos(phi1) * cos(phi2) * sinLambda * sinLambda
        return 2 * earthRadiusM * asin(min(1, a.squareRoot()))
    }

    /// Distance from the centre to `latitude`, `longitude`, in metres.
    public func distanceM(latitude: Double, longitude: Double) -> Double {
        Geofence.distanceM(latitude1: self.latitude, longitude1: self.longitude,
                           latitude2: latitude, longitude2: longitude)
    }
}


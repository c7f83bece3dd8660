import Foundation

/// Synthetic NMEA tracks around a geofence centre, one cycle (RMC, GGA, GSA)
/// per second of receiver time on 2026-03-10 from 08:00:00 UTC, HDOP 0.9:
/// what a walk into the office or a pass-by looks like to a receiver.
enum GPSTracks {
    /// The fence the tracks are about: 150 m, 60 s dwell.
    static let centre = (latitude: 48.8584, longitude: 2.2945)

    static func fence(name: String) -> String {
        """
        [[gps.geofences]]
        name = "\(name)"
        latitude = \(centre.latitude)
        longitude = \(centre.longitude)
        radius_m = 150
        dwell_s = 60
        """
    }

    /// 12 m/s straight past the centre, 40 m north of it: about 25 s inside, no arrival.
    static var passBy: [(east: Double, north: Double)] {
        stride(from: -600.0, through: 600, by: 12).map { ($0, 40) }
    }

    /// 10 m/s from 500 m west to the centre, 90 s there (the arrival), then 400 m north (the departure).
    static var entry: [(east: Double, north: Double)] {
        stride(from: -500.0, to: 0, by: 10).map { ($0, 0) }
            + Array(repeating: (0, 0), count: 90)
            + stride(from: 0.0, through: 400, by: 10).map { (0, $0) }
    }

    /// The sentences of each cycle of `points`, the first at `start` seconds after 08:00:00.
    static func sentences(_ points: [(east: Double, north: Double)], start: Int = 0) -> [[String]] {
        points.enumerated().map { index, point in
            let latitude = centre.latitude + point.north / 111_320
            let longitude = centre.longitude + point.east / (111_320 * cos(centre.latitude * .pi / 180))
            let second = 8 * 3600 + start + index
            let time = String(format: "%02d%02d%02d.00", second / 3600, second / 60 % 60, second % 60)
            let lat = angle(latitude, degreeDigits: 2, positive: "N", negative: "S")
            let lon = angle(longitude, degreeDigits: 3, positive: "E", negative: "W")
            return ["GPRMC,\(time),A,\(lat),\(lon),0.0,0.0,100326,,,A",
                    "GPGGA,\(time),\(lat),\(lon),1,09,0.9,35.0,M,47.0,M,,",
                    "GPGSA,A,3,01,02,03,04,05,06,07,08,09,,,,1.6,0.9,1.3"].map(checksummed)
        }
    }

    static func checksummed(_ body: String) -> String {
        "$\(body)*" + String(format: "%02X", body.utf8.reduce(0) { $0 ^ $1 })
    }

    private static func angle(_ value: Double, degreeDigits: Int, positive: String, negative: String) -> String {
        let magnitude = abs(value)
        let degrees = Int(magnitude)
        let minutes = (magnitude - Double(degrees)) * 60
        return String(format: "%0\(degreeDigits)d%07.4f", degrees, minutes) + "," + (value >= 0 ? positive : negative)
    }
}

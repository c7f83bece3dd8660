import Foundation
import NMEA

/// `deskdays enroll gps` minus the command line: average a source's fixes
/// (a serial receiver, gpsd, ModemManager) for a while and turn the result
/// into a `[[gps.geofences]]` block.
public enum GPSEnrollment {
    /// The averaged position and how it was obtained.
    public struct Result: Sendable {
        public var latitude: Double
        public var longitude: Double
        public var fixes: Int
        public var spanSeconds: Double
    }

    /// Opens the device once, so a wrong path or missing permission is
    /// reported at once instead of being retried in the background.
    public static func checkDevice(path: String, baud: Int) throws(SerialError) {
        _ = try SerialPort(path: path, baud: baud)
    }

    /// Collects valid fixes until they cover `seconds` of receiver time, or
    /// until `deadline` wall-clock seconds have passed (a receiver without a
    /// fix). Returns nil when no valid fix arrived at all.
    public static func average(fixes source: any FixSource, seconds: Double,
                               deadline: Double) async -> Result? {
        let averager = await withTaskGroup(of: PositionAverager?.self) { group in
            group.addTask {
                var averager = PositionAverager()
                for await event in source.events() {
                    guard case .fix(let fix) = event else { continue }
                    averager.add(fix)
                    if averager.count > 0, averager.spanSeconds >= seconds { break }
                    if Task.isCancelled { break }
                }
                return averager
            }
            group.addTask {
                try? await Task.sleep(nanoseconds: UInt64(deadline * 1_000_000_000))
                return nil
            }
            // Whichever finishes first: enough fixes, or the deadline. The
            // collector is cancelled at the deadline and returns what it had.
            var result: PositionAverager?
            for await value in group {
                if let value {
                    result = value
                    break
                }
                group.cancelAll()
            }
            group.cancelAll()
            return result
        }
        guard let averager, let mean = averager.mean else { return nil }
        return Result(latitude: mean.latitude, longitude: mean.longitude,
                      fixes: averager.count, spanSeconds: averager.spanSeconds)
    }

    /// The TOML block to append to the configuration (docs/cli.md keys).
    public static func geofenceBlock(name: String, latitude: Double, longitude: Double,
                                     radiusM: Double, dwellS: Double, quote: (String) -> String) -> String {
        """
        [[gps.geofences]]
        name = \(quote(name))
        latitude = \(String(format: "%.6f", latitude))
        longitude = \(String(format: "%.6f", longitude))
        radius_m = \(number(radiusM))
        dwell_s = \(number(dwellS))

        """
    }

    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}

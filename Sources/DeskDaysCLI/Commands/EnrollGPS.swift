import ArgumentParser
import DeskDaysCore
import DeskDaysConfig
import Foundation
import GPSAdapter

/// `deskdays enroll gps`: average the receiver's fixes and add a geofence
/// there. The position is shown on the user's own terminal (so they can
/// check it) and written to their config; it is never logged.
struct EnrollGPS: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gps",
        abstract: "Add a geofence at the current GPS position.",
        discussion: """
        Reads the receiver of [gps] (or --device) for --seconds of valid fixes, averages \
        them and appends a [[gps.geofences]] block to the configuration file.
        """
    )

    @OptionGroup var global: GlobalOptions

    @Option(help: "Serial device of the receiver (default: [gps] device).")
    var device: String?

    @Option(help: "Baud rate (default: [gps] baud).")
    var baud: Int?

    @Option(help: "Name of the geofence, reported in check-ins.")
    var name = "office"

    @Option(help: "Radius in metres.")
    var radius: Double = 150

    @Option(help: "Seconds to stay inside before checking in.")
    var dwell: Double = 120

    @Option(help: "Seconds of fixes to average.")
    var seconds: Double = 60

    func validate() throws {
        if let problem = RuleName.problem(name) {
            throw ValidationError("--name \(name): \(problem).")
        }
        guard radius >= 10, radius <= 100_000 else {
            throw ValidationError("--radius must be between 10 and 100000 metres.")
        }
        guard dwell >= 0 else { throw ValidationError("--dwell must not be negative.") }
        guard seconds > 0, seconds <= 3600 else {
            throw ValidationError("--seconds must be between 1 and 3600.")
        }
    }

    func run() async throws {
        let configuration = try ConfigLoader.load(path: global.configPath)
        let path = device ?? configuration.gps.device
        let rate = baud ?? configuration.gps.baud
        do {
            try GPSEnrollment.checkDevice(path: path, baud: rate)
        } catch {
            throw CLIError("cannot open the GPS receiver \(path) (\(error)); plug it in, check you may read it (udev rules), or pass --device.")
        }
        printError("Reading \(path) for \(Int(seconds)) s of fixes…")
        let reader = NMEASerialReader(path: path, baud: rate)
        guard let result = await GPSEnrollment.average(reader: reader, seconds: seconds,
                                                       deadline: seconds * 2 + 30) else {
            throw CLIError("no position fix from \(path); put the receiver where it sees the sky and try again.")
        }
        print("Averaged \(result.fixes) fixes over \(Int(result.spanSeconds.rounded())) s: "
              + String(format: "%.6f, %.6f", result.latitude, result.longitude))
        let block = GPSEnrollment.geofenceBlock(name: name, latitude: result.latitude, longitude: result.longitude,
                                                radiusM: radius, dwellS: dwell, quote: ConfigEditor.quoted)
        try Enrollment.append(block, rule: "geofence \(ConfigEditor.quoted(name)) (radius \(Int(radius)) m)", to: global.configPath)
        Enrollment.remindIfOff(configuration.gps.enabled, method: "GPS", section: "gps")
    }
}

import Localization
import ArgumentParser
import CommandSupport
import DeskDaysConfig
import DeskDaysCore
import GPSBus
import Foundation
import GPSAdapter
import SystemBus

/// `deskdays enroll gps`: average the fixes of a GPS source (the serial
/// receiver, gpsd or ModemManager, as `[gps] source` or --source says) and
/// add a geofence there. The position is shown on the user's own terminal
/// (so they can check it) and written to their config; it is never logged.
package struct EnrollGPS: AsyncParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "gps",
        abstract: tr("Add a geofence at the current GPS position (serial receiver, gpsd or ModemManager)."),
        discussion: tr("""
        Reads the GPS source of [gps] (or --source: serial, gpsd, modemmanager, auto) for \
        --seconds of valid fixes, averages them and appends a [[gps.geofences]] block to the \
        configuration file. With ModemManager, a modem whose GPS NMEA source is off is asked \
        to turn it on (ModemManager asks polkit); nothing else about the modem is changed.
        """)
    )

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp(tr("Where fixes come from: serial, gpsd, modemmanager or auto (default: [gps] source).")))
    var source: String?

    @Option(help: ArgumentHelp(tr("Serial device of the receiver (default: [gps] device).")))
    var device: String?

    @Option(help: ArgumentHelp(tr("Baud rate (default: [gps] baud).")))
    var baud: Int?

    @Option(help: ArgumentHelp(tr("Name of the geofence, reported in check-ins.")))
    var name = "office"

    @Option(help: ArgumentHelp(tr("Radius in metres.")))
    var radius: Double = 150

    @Option(help: ArgumentHelp(tr("Seconds to stay inside before checking in.")))
    var dwell: Double = 120

    @Option(help: ArgumentHelp(tr("Seconds of fixes to average.")))
    var seconds: Double = 60

    package func validate() throws {
        try checkRuleName(name)
        if let source, GPSSettings.Source(rawValue: source) == nil {
            throw ValidationError(tr("--source \(source) is not one of serial, gpsd, modemmanager, auto."))
        }
        guard radius >= 10, radius <= 100_000 else {
            throw ValidationError(tr("--radius must be between 10 and 100000 metres."))
        }
        guard dwell >= 0 else { throw ValidationError(tr("--dwell must not be negative.")) }
        guard seconds > 0, seconds <= 3600 else {
            throw ValidationError(tr("--seconds must be between 1 and 3600."))
        }
    }

    package func run() async throws {
        let configuration = try ConfigLoader.load(path: global.configPath)
        var settings = configuration.gps
        if let source { settings.source = GPSSettings.Source(rawValue: source) ?? settings.source }
        if let device { settings.device = device }
        if let baud { settings.baud = baud }
        let address = BusSupport.systemAddress()
        let resolved = BusEnrollment.resolve(settings.source, serialDevice: settings.device, address: address)
        settings.source = resolved.source
        if let reason = resolved.reason { printError(tr("GPS source: \(resolved.source.rawValue) (\(reason)).")) }
        let described: String
        do {
            switch settings.source {
            case .serial, .auto:
                settings.source = .serial
                do {
                    try GPSEnrollment.checkDevice(path: settings.device, baud: settings.baud)
                } catch {
                    throw CLIError(tr("cannot open the GPS receiver \(settings.device) (\(error)); plug it in, check you may read it (udev rules), or pass --device."))
                }
                described = settings.device
            case .gpsd:
                try BusEnrollment.checkGPSD(address: address)
                described = "gpsd"
            case .modemmanager:
                let modem = try BusEnrollment.prepareModem(address: address) { printError($0) }
                described = tr("ModemManager's modem \(modem)")
            }
        } catch let refusal as BusEnrollment.Refusal {
            throw CLIError(refusal.sentence)
        }
        printError(tr("Reading \(described) for \(Int(seconds)) s of fixes…"))
        let fixes = GPSSources.fixSource(for: settings)
        guard let result = await GPSEnrollment.average(fixes: fixes, seconds: seconds, deadline: seconds * 2 + 30) else {
            throw CLIError(tr("no position fix from \(described); put the receiver where it sees the sky and try again."))
        }
        // The coordinates stay C-formatted: they are what goes into the configuration file.
        let position = String(format: "%.6f, %.6f", result.latitude, result.longitude)
        print(trn("Averaged \(result.fixes) fix over \(Int(result.spanSeconds.rounded())) s: \(position)",
                  "Averaged \(result.fixes) fixes over \(Int(result.spanSeconds.rounded())) s: \(position)", result.fixes))
        let block = GPSEnrollment.geofenceBlock(name: name, latitude: result.latitude, longitude: result.longitude,
                                                radiusM: radius, dwellS: dwell, quote: ConfigEditor.quoted)
        try Enrollment.append(block, rule: tr("geofence \(ConfigEditor.quoted(name)) (radius \(Int(radius)) m)"), to: global.configPath)

        Enrollment.remindIfOff(configuration.gps.enabled, method: "GPS", section: "gps")
    }
}

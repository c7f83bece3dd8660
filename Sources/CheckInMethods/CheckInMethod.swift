import ArgumentParser
import CommandSupport
import DeskDaysConfig
import DeskDaysCore
import DeskDaysDoctor
import GPSAdapter
import GPSBus
import Logging
import Wired
import NFCAdapter
import QRAdapter
import WiFiAdapter
import WiredAdapter

/// A check-in method: everything DeskDays knows about one way of seeing the
/// user arrive, in one value, as gpsd keeps a driver in one `gps_type_t`
/// of its table (drivers/drivers.c). Adding a method is adding a case to
/// `MethodName`, which the compiler then asks for here (`of`) and for its
/// section (`MethodSection.of`); nothing else lists the methods
/// (docs/design.md "Check-in methods").
///
/// Whether a method sees the user leave is `Source.isInstant` (NFC and QR
/// taps are instants), kept with the time-on-site arithmetic that needs it.
public struct CheckInMethod: Sendable {
    /// The configuration's part: the `[name]` section, how it is read, whether it is enabled.
    public let section: MethodSection
    /// The adapter, built from the configuration, stamping its check-ins and
    /// timing its waits with the agent's one clock.
    public let adapter: @Sendable (Configuration, AgentClock) -> any CheckInAdapter
    /// `deskdays doctor`'s checks of the method (in the method's module), with the daemons' answers it needs.
    public let doctor: @Sendable (Doctor, DoctorProbes, Configuration) -> Doctor.Section
    /// `deskdays enroll NAME`: learns a rule from the hardware.
    public let enroll: any ParsableCommand.Type

    /// The method's name: its section, its check-in source, its `enroll` subcommand.
    public var name: String { section.name }
}

extension CheckInMethod {
    /// The one table, in the order of `MethodName` (the order `doctor` lists the methods).
    public static let all = MethodName.allCases.map(of)

    /// The entry of `method`: a case of `MethodName` without one does not build.
    public static func of(_ method: MethodName) -> CheckInMethod {
        switch method {
        case .nfc:
            CheckInMethod(section: .nfc,
                          adapter: { NFCCheckInAdapter(settings: $0.nfc, logger: Logger(label: "deskdays.nfc"), now: $1.now) },
                          doctor: { $0.nfc($2.nfc, pcscReaders: $1.pcscReaders) }, enroll: EnrollNFC.self)
        case .gps:
            // `[gps] source`: a serial receiver, gpsd or ModemManager (or `auto`); the geofence is the same.
            CheckInMethod(section: .gps,
                          adapter: { GPSAdapter(settings: $0.gps, fixes: GPSSources.fixSource(for: $0.gps), now: $1.now) },
                          doctor: { $0.gps($2.gps, probe: $1.gpsProbe($2.gps), gpsdSendsFixes: $1.gpsdSendsFixes) }, enroll: EnrollGPS.self)
        case .qr:
            CheckInMethod(section: .qr,
                          adapter: { QRCheckInAdapter(settings: $0.qr, logger: Logger(label: "deskdays.qr"), now: $1.now) },
                          doctor: { doctor, _, configuration in doctor.qr(configuration.qr) }, enroll: EnrollQR.self)
        case .wifi:
            CheckInMethod(section: .wifi,
                          adapter: { WiFiCheckInAdapter(settings: $0.wifi, clock: $1) },
                          doctor: { doctor, _, configuration in doctor.wifi(configuration.wifi) }, enroll: EnrollWiFi.self)
        case .wired:
            CheckInMethod(section: .wired,
                          adapter: { WiredCheckInAdapter(settings: $0.wired, clock: $1) },
                          doctor: { $0.wired($2.wired, gateways: $1.defaultGateways()) }, enroll: EnrollWired.self)
        }
    }

    /// The adapters the configuration enables (every method is in every build).
    public static func adapters(for configuration: Configuration, clock: AgentClock) -> [any CheckInAdapter] {
        all.filter { $0.section.isEnabled(configuration) }.map { $0.adapter(configuration, clock) }
    }

    /// `deskdays doctor`'s findings about the methods: each method's section,
    /// then a note when none is enabled.
    public static func diagnose(_ doctor: Doctor, _ probes: DoctorProbes, _ configuration: Configuration) -> [Doctor.Section] {
        all.map { $0.doctor(doctor, probes, configuration) } + doctor.noMethodNote(configuration)
    }
}

/// The read-only questions the methods' doctor checks ask daemons and the
/// kernel: pcscd's list of readers, what the system bus says about gpsd and
/// ModemManager (and whether gpsd sends a fix within a moment), the default
/// gateways. `deskdays doctor` asks them for real; tests give the answers.
public struct DoctorProbes: Sendable {
    public let pcscReaders: @Sendable () -> NFCTagReader.PCSCAnswer
    /// Nil when not asked (then only the serial device is checked).
    public let gpsProbe: @Sendable (GPSSettings) -> GPSSourceProbe?
    public let gpsdSendsFixes: @Sendable () -> Bool
    /// Nil when they cannot be read.
    public let defaultGateways: @Sendable () -> [Gateway]?

    public init(pcscReaders: @escaping @Sendable () -> NFCTagReader.PCSCAnswer = { .unreachable },
                gpsProbe: @escaping @Sendable (GPSSettings) -> GPSSourceProbe? = { _ in nil },
                gpsdSendsFixes: @escaping @Sendable () -> Bool = { false },
                defaultGateways: @escaping @Sendable () -> [Gateway]? = { nil }) {
        self.pcscReaders = pcscReaders
        self.gpsProbe = gpsProbe
        self.gpsdSendsFixes = gpsdSendsFixes
        self.defaultGateways = defaultGateways
    }
}

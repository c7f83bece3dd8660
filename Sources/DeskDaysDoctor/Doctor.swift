import Localization
import DeskDaysConfig
import DeskDaysCore
import Foundation

/// `deskdays doctor`: for each enabled method, what the machine offers and
/// what stands in the way, each problem with its remedy.
///
/// Everything is read through a `SystemView`, so the checks run against a
/// scratch `/proc` and `/sys` in tests. Nothing here opens a device: diagnosing
/// must not disturb a running agent. Each method's checks live in its own
/// module (`Doctor.nfc` in NFCAdapter, `gps` in GPSBus, `qr`, `wifi`,
/// `wired`), taking the read-only answers of daemons they need as
/// arguments, so tests give them (`DoctorProbes` in CheckInMethods); this
/// module links no hardware library.
public struct Doctor: Sendable {
    /// One observation (in DeskDaysCore, so the desktop reports its own without linking this module).
    public typealias Finding = DoctorFinding

    /// The findings about one method (or the configuration, or the agent).
    public struct Section: Sendable, Equatable {
        public var name: String
        public var summary: String
        public var findings: [Finding]

        public init(name: String, summary: String, findings: [Finding]) {
            self.name = name
            self.summary = summary
            self.findings = findings
        }
    }

    /// The machine as the checks read it (a scratch tree in tests).
    public let system: SystemView

    public init(system: SystemView = SystemView()) {
        self.system = system
    }

    /// Whether any finding means an enabled method cannot work.
    public static func failed(_ sections: [Section]) -> Bool {
        sections.contains { $0.findings.contains { $0.level == .problem } }
    }

    /// A section saying that no method is enabled, when none is (each
    /// method's own checks are in its entry of `CheckInMethod.all`).
    public func noMethodNote(_ configuration: Configuration) -> [Section] {
        var sections: [Section] = []
        if !configuration.anyMethodEnabled {
            sections.append(Section(name: tr("methods"), summary: tr("none enabled"), findings: [

                Finding(.note, tr("no check-in method is enabled: only manual check-ins, reminders and the fallback work"),
                        fix: tr("`deskdays setup` sets one up; or `deskdays enroll METHOD`, then `deskdays enable METHOD`")),
            ]))
        }
        return sections
    }

    /// Existence, kind, permission and other holders of a serial device.
    public func serialDevice(_ path: String, purpose: String, rule: String) -> [Finding] {
        switch system.node(at: path) {
        case .missing:
            return [Finding(.problem, tr("\(path) does not exist (\(purpose) unplugged, or another name)"),
                            fix: tr("plug it in and look at `ls -l /dev/ttyACM* /dev/ttyUSB* /dev/gps*`; install \(rule) for a stable name, then set the device in the configuration"))]
        case .other:
            return [Finding(.problem, tr("\(path) is not a character device"), fix: tr("point the configuration at the receiver's tty, e.g. /dev/ttyACM0"))]
        case .characterDevice:
            var findings: [Finding] = []
            if system.canReadWrite(path) {
                findings.append(Finding(.ok, tr("\(path) is present and readable")))
            } else {
                findings.append(Finding(.problem, tr("no permission to read and write \(path)"),
                                        fix: tr("install \(rule) (gives the logged-in user access) or `sudo usermod -aG dialout $USER` and log in again")))
            }
            let holders = system.holders(of: path)
            if holders.contains(where: { $0.hasPrefix("gpsd ") }) {
                findings.append(Finding(.warning, tr("\(path) is open in \(holders.joined(separator: ", ")): gpsd owns the receiver, and a second reader gets nothing or garbage"),
                                        fix: tr("set [gps] source = \"gpsd\" (or \"auto\") to read gpsd's fixes over the system bus")))
            } else if holders.contains(where: { $0.hasPrefix("ModemManager ") }) {
                findings.append(Finding(.warning, tr("\(path) is open in \(holders.joined(separator: ", ")): ModemManager took the port"),
                                        fix: tr("install udev/70-deskdays-gps.rules (ID_MM_DEVICE_IGNORE), or, if it is the modem's own GNSS port, set [gps] source = \"modemmanager\"")))
            } else if !holders.isEmpty {
                findings.append(Finding(.warning, tr("\(path) is open in \(holders.joined(separator: ", "))"),
                                        fix: tr("stop that program or give it another device")))
            }
            return findings
        }
    }
}

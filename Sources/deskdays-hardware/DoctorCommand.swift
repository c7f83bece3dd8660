import Localization
import CommandSupport
import AgentSocket
import ArgumentParser
import CheckInMethods
import DeskDaysAgent
import DeskDaysDesktop
import DeskDaysDoctor
import DeskDaysCLI
import DeskDaysConfig
import DeskDaysCore
import DeskDaysStore
import Foundation
import GPSBus
import SystemBus
import Logging
import NFCAdapter
import WiredAdapter

/// `deskdays doctor`: hardware and permission diagnosis, with remedies.
struct DoctorCommand: AsyncParsableCommand {
    init() {}

    static let configuration = CommandConfiguration(
        commandName: Hardware.Command.doctor.rawValue,
        abstract: Hardware.Command.doctor.abstract,
        discussion: tr("Exit status 1 when something an enabled method needs is missing or broken."))

    @OptionGroup var global: GlobalOptions
    @OptionGroup var socket: SocketOptions
}

/// The diagnosis.
extension DoctorCommand {
    func run() async throws {
        var sections: [Doctor.Section] = []
        let configuration: Configuration
        let path = global.configPath
        do {
            configuration = try ConfigLoader.load(path: path, required: global.configIsExplicit)
            let exists = FileManager.default.fileExists(atPath: path)
            sections.append(Doctor.Section(name: tr("configuration"), summary: exists ? path : tr("\(path) (absent: the defaults)"), findings: [
                Doctor.Finding(.ok, exists ? tr("the configuration is valid") : tr("no configuration file: defaults, no method enabled")),
            ]))
        } catch {
            sections.append(Doctor.Section(name: tr("configuration"), summary: path, findings: [
                Doctor.Finding(.problem, tr("the configuration has errors:") + "\n" + error.description,
                               fix: tr("correct the lines named above (`deskdays config check` lists them)")),
            ]))
            report(sections)
            throw ExitCode(1)
        }
        let bus = BusSupport.systemAddress()
        let probes = DoctorProbes(pcscReaders: NFCTagReader.pcscAnswer,
                                  gpsProbe: { GPSSourceProbe.run(address: bus, serialDevice: $0.device) },
                                  gpsdSendsFixes: { GPSSourceProbe.gpsdSendsFixes(address: bus, seconds: 2) },
                                  defaultGateways: { try? WiredGateways.current() })
        sections += CheckInMethod.diagnose(Doctor(), probes, configuration)
        sections.append(databaseSection())
        sections.append(agentSection())
        report(sections)
        if Doctor.failed(sections) { throw ExitCode(1) }
    }

    /// Whether the database can be trusted: the checks every write runs
    /// first (`PRAGMA quick_check` among them), on a read-only connection.
    func databaseSection() -> Doctor.Section {
        let path = global.databasePath
        do {
            switch try AttendanceStore.health(path: path) {
            case .absent:
                return Doctor.Section(name: tr("database"), summary: tr("\(path) (not created yet)"), findings: [
                    Doctor.Finding(.note, tr("no database yet: the first check-in creates it")),
                ])
            case .healthy(let version, let needsMigration):
                return Doctor.Section(name: tr("database"), summary: path, findings: [
                    Doctor.Finding(.ok, needsMigration
                                   ? tr("the database passes SQLite's quick_check (schema v\(version), updated on the next write)")
                                   : tr("the database passes SQLite's quick_check (schema v\(version))")),
                ] + clockFindings(path))
            }
        } catch let error as StoreError {
            return Doctor.Section(name: tr("database"), summary: path, findings: [
                Doctor.Finding(.problem, error.description, fix: tr("nothing was changed; keep a copy of the file before you act on the advice above")),
            ])
        } catch {
            return Doctor.Section(name: tr("database"), summary: path, findings: [
                Doctor.Finding(.problem, tr("the database could not be checked: \(error)"), fix: tr("check the path and its permissions")),
            ])
        }
    }

    /// A clock that ran ahead: this device's (found out when it went back,
    /// its lines stamped again: `correctClock`) or another's.
    func clockFindings(_ path: String) -> [Doctor.Finding] {
        guard let store = try? AttendanceStore(readingFrom: path) else { return [] }
        var findings: [Doctor.Finding] = []
        if (try? store.clockWentBack(now: .now())) == true {
            findings.append(Doctor.Finding(.warning, tr("this machine's clock is behind the latest change this device wrote: it ran ahead and was set back"),
                                           fix: tr("`deskdays sync status` stamps those changes again; let the clock be set automatically (`timedatectl set-ntp true`)")))
        }
        for correction in (try? store.clockCorrections()) ?? [] {
            let (count, time) = (correction.lines, correction.at.map { $0.formatted(date: .abbreviated, time: .shortened) } ?? "-")
            findings.append(correction.isSelf
                ? Doctor.Finding(.warning, trn("this device's clock ran ahead until \(time): \(count) change written on it was stamped again",
                                               "this device's clock ran ahead until \(time): \(count) changes written on it were stamped again", count),
                                 fix: tr("let the clock be set automatically (`timedatectl set-ntp true`)"))
                : Doctor.Finding(.note, trn("\(correction.name)'s clock ran ahead until \(time): \(count) change written on it was stamped again",
                                            "\(correction.name)'s clock ran ahead until \(time): \(count) changes written on it were stamped again", count),
                                 fix: tr("on \(correction.name), let the clock be set automatically (`timedatectl set-ntp true`)")))
        }
        return findings
    }

    /// Whether the agent runs, and whether it can show reminders.
    func agentSection() -> Doctor.Section {
        var findings: [Doctor.Finding] = []
        let path = socket.socketPath
        let running: Bool
        switch ControlConnection.connect(path: path, waiting: .answer) {
        case .connected: running = true
        case .noAgent: running = false
        case .failed(let reason):
            running = false
            findings.append(Doctor.Finding(.warning, reason, fix: tr("remove a stale \(path) or fix its permissions")))
        case .untrusted(let doubt):
            running = false
            findings.append(Doctor.Finding(.problem, tr("the agent socket \(path) is not trusted: \(doubt)"),
                                           fix: tr("remove \(path) and its folder if you did not create them, then start your agent")))
        }
        findings.append(running
            ? Doctor.Finding(.ok, tr("the agent is running (\(path))"))
            : Doctor.Finding(.note, tr("the agent is not running"), fix: tr("`systemctl --user enable --now deskdays` (after `make install`), or `deskdays agent`")))
        if let reason = DesktopNotifier(logger: Logger(label: "deskdays.doctor")).unavailableReason() {
            findings.append(Doctor.Finding(.note, tr("reminders cannot be shown from here: \(reason)"),
                                           fix: tr("run the agent inside your desktop session (the systemd user unit does)")))
        } else {
            findings += DesktopBus.doctorFindings()
        }
        return Doctor.Section(name: tr("agent"), summary: running ? tr("running") : tr("not running"), findings: findings)
    }

    func report(_ sections: [Doctor.Section]) {
        var lines: [String] = []
        // The marks in a column as wide as the widest (7 in English: "warning", "PROBLEM").
        let marks: [Doctor.Finding.Level: String] = [.ok: tr("ok"), .note: tr("note"), .warning: tr("warning"), .problem: tr("PROBLEM")]
        // Columns, not characters (a Japanese mark takes two a character).
        let width = marks.values.map(Localization.displayWidth).max() ?? 7
        let indent = String(repeating: " ", count: width + 3)
        for section in sections {
            lines.append("\(section.name): \(section.summary)")
            for finding in section.findings {
                let shown = marks[finding.level] ?? ""
                let mark = shown + String(repeating: " ", count: max(0, width - Localization.displayWidth(shown)))
                let text = finding.text.split(separator: "\n").joined(separator: "\n" + indent)
                lines.append("  \(mark) \(text)")
                if let fix = finding.fix { lines.append(indent + tr("fix: \(fix)")) }
            }
        }
        let failed = Doctor.failed(sections)
        lines.append("\n" + (failed ? tr("Something an enabled method needs is missing; see PROBLEM above.") : tr("Nothing stands in the way of the enabled methods.")))

        print(lines.joined(separator: "\n"))
    }
}

import ArgumentParser
import DeskDaysCLI
import DeskDaysCore

/// `deskdays-hardware`: the commands whose work needs the hardware libraries,
/// with their own command tree (docs/cli.md, "Executables"). `deskdays`
/// replaces itself with this program for them; it is not meant to be run by
/// hand (but works when it is), so its help speaks of `deskdays`.
struct HardwareCommands: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deskdays",
        abstract: tr("The DeskDays commands that use the check-in hardware."),
        version: DeskDays.version,
        subcommands: [AgentCommand.self, DoctorCommand.self, Enroll.self, QRCommand.self])

    /// `deskdays enroll gps|nfc|qr|wifi|wired`.
    struct Enroll: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "enroll",
            abstract: tr("Learn a check-in rule from the hardware and add it to the configuration."),

            subcommands: [EnrollGPS.self, EnrollNFC.self, EnrollQR.self, EnrollWiFi.self, EnrollWired.self])
    }
}

await DeskDays.run(HardwareCommands.self)

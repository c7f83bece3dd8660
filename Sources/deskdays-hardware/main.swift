import Localization
import ArgumentParser
import CheckInMethods
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
        subcommands: [AgentCommand.self, DoctorCommand.self, Enroll.self, QRCommand.self, SetupCommand.self])

    /// `deskdays enroll METHOD`, one subcommand per method of the table.
    struct Enroll: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "enroll",
            abstract: Hardware.abstract("enroll"),
            subcommands: CheckInMethod.all.map(\.enroll))
    }
}

await DeskDays.run(HardwareCommands.self)

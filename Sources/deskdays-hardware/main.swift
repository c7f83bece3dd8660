import Localization
import ArgumentParser
import CheckInMethods
import CommandSupport
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
        subcommands: Hardware.Command.allCases.map(command))

    /// The type of each command of the one list: a case without one does not build.
    static func command(_ command: Hardware.Command) -> any ParsableCommand.Type {
        switch command {
        case .agent: AgentCommand.self
        case .doctor: DoctorCommand.self
        case .enroll: Enroll.self
        case .qr: QRCommand.self
        case .setup: SetupCommand.self
        }
    }

    /// `deskdays enroll METHOD`, one subcommand per method of the table.
    struct Enroll: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: Hardware.Command.enroll.rawValue,
            abstract: Hardware.Command.enroll.abstract,
            subcommands: CheckInMethod.all.map(\.enroll))
    }
}

await DeskDays.run(HardwareCommands.self)

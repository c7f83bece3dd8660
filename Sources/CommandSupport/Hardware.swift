import Localization
import AgentSocket

/// The commands whose work needs the hardware libraries (PC/SC, libnfc,
/// ZXing, zbar, V4L2, libnl, sd-bus): the one list. They live in their own
/// executable, `libexec/deskdays/deskdays-hardware`, with their own command
/// tree (docs/cli.md, "Executables"). `deskdays-cli` links none of those
/// libraries, so the commands a status bar or a script runs many times a
/// day start fast; like git with its `git-*` programs, it replaces itself
/// (`execv`, same process id, same arguments) with `deskdays-hardware` for
/// these commands before parsing anything, so their flags, help and work are
/// defined in one place only. Each tree maps every case to its type in an
/// exhaustive switch: a command added here does not build without both.
package enum Hardware {
    package enum Command: String, CaseIterable, Sendable {
        case agent, doctor, enroll, qr, setup

        /// The one-line summary both trees' help lists.
        package var abstract: String {
            switch self {
            case .agent: tr("Run the agent: watch the enabled check-in methods and store arrivals.")
            case .doctor: tr("Check the hardware, drivers and permissions each enabled method needs, and say how to fix what is wrong.")
            case .enroll: tr("Learn a check-in rule from the hardware and add it to the configuration.")
            case .qr: tr("Make and read QR codes for QR check-in.")
            case .setup: tr("Set DeskDays up by answering a few questions (on a terminal).")
            }
        }
    }

    /// The executable's name.
    package static let executableName = "deskdays-hardware"

    /// Whether the arguments (global options already moved last) name one of
    /// those commands, or ask for its help (`help agent`).
    package static func owns(_ arguments: [String]) -> Bool {
        let words = arguments.first == "help" ? Array(arguments.dropFirst()) : arguments
        return words.first.flatMap(Command.init(rawValue:)) != nil
    }

    /// Replaces this process with `deskdays-hardware` and the same arguments.
    package static func handOver() throws -> Never {
        let (found, looked) = Companion.locate(executableName)
        guard let target = found else {
            throw CLIError(tr("this command needs \(executableName), which is not installed (looked for \(looked.joined(separator: " and "))); reinstall DeskDays with `make install`."))
        }
        let reason = Companion.execute(target)
        throw CLIError(tr("cannot start \(target) (\(reason)); reinstall DeskDays with `make install`."))
    }
}

import Localization
import CommandSupport
import AgentSocket
import ArgumentParser
import DeskDaysCore

/// The commands whose work needs the hardware libraries (PC/SC, libnfc,
/// ZXing, zbar, V4L2, libnl, sd-bus) live in their own executable,
/// `libexec/deskdays/deskdays-hardware`, with their own command tree
/// (docs/cli.md, "Executables"). `deskdays` links none of those libraries,
/// so the commands a status bar or a script runs many times a day start
/// fast; like git with its `git-*` programs, it replaces itself (`execv`,
/// same process id, same arguments) with `deskdays-hardware` for these
/// commands before parsing anything, so their flags, help and work are
/// defined in one place only.
package enum Hardware {
    /// The executable's name.
    package static let executableName = "deskdays-hardware"

    /// The command paths `deskdays-hardware` defines, with the one-line
    /// summary `deskdays --help` lists for each.
    package static let commands: [(path: [String], abstract: String)] = [
        (["agent"], tr("Run the agent: watch the enabled check-in methods and store arrivals.")),
        (["doctor"], tr("Check the hardware, drivers and permissions each enabled method needs, and say how to fix what is wrong.")),
        (["enroll"], tr("Learn a check-in rule from the hardware and add it to the configuration.")),
        (["qr"], tr("Make and read QR codes for QR check-in.")),
        (["setup"], tr("Set DeskDays up by answering a few questions (on a terminal).")),
    ]

    /// The summary of the command at `path`.
    package static func abstract(_ path: String...) -> String {
        commands.first { $0.path == path }?.abstract ?? ""
    }

    /// Whether the arguments (global options already moved last) name one of
    /// those commands, or ask for its help (`help agent`).
    static func owns(_ arguments: [String]) -> Bool {
        let words = arguments.first == "help" ? Array(arguments.dropFirst()) : arguments
        return commands.contains { words.starts(with: $0.path) }
    }

    /// Replaces this process with `deskdays-hardware` and the same arguments.
    static func handOver() throws -> Never {
        let (found, looked) = Companion.locate(executableName)
        guard let target = found else {
            throw CLIError(tr("this command needs \(executableName), which is not installed (looked for \(looked.joined(separator: " and "))); reinstall DeskDays with `make install`."))
        }
        let reason = Companion.execute(target)
        throw CLIError(tr("cannot start \(target) (\(reason)); reinstall DeskDays with `make install`."))
    }
}

/// A `deskdays-hardware` command as `deskdays --help` lists it. It is never
/// parsed: `DeskDays.start` hands these commands over before parsing.
protocol HandedOver: ParsableCommand {}

extension HandedOver {
    func run() throws { try Hardware.handOver() }
}

struct AgentEntry: HandedOver {
    static let configuration = CommandConfiguration(commandName: "agent", abstract: Hardware.abstract("agent"))
    @Argument(parsing: .allUnrecognized) var arguments: [String] = []
}

struct DoctorEntry: HandedOver {
    static let configuration = CommandConfiguration(commandName: "doctor", abstract: Hardware.abstract("doctor"))
    @Argument(parsing: .allUnrecognized) var arguments: [String] = []
}

struct QREntry: HandedOver {
    static let configuration = CommandConfiguration(commandName: "qr", abstract: Hardware.abstract("qr"))
    @Argument(parsing: .allUnrecognized) var arguments: [String] = []
}

struct SetupEntry: HandedOver {
    static let configuration = CommandConfiguration(commandName: "setup", abstract: Hardware.abstract("setup"))
    @Argument(parsing: .allUnrecognized) var arguments: [String] = []
}

struct EnrollEntry: HandedOver {
    static let configuration = CommandConfiguration(commandName: "enroll", abstract: Hardware.abstract("enroll"))
    @Argument(parsing: .allUnrecognized) var arguments: [String] = []
}

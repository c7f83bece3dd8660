import CommandSupport
import ArgumentParser

/// A `deskdays-hardware` command as `deskdays --help` lists it
/// (`Hardware.Command`). It is never parsed: `DeskDays.start` hands these
/// commands over before parsing.
protocol HandedOver: ParsableCommand {
    static var command: Hardware.Command { get }
}

extension HandedOver {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: command.rawValue, abstract: command.abstract)
    }
    func run() throws { try Hardware.handOver() }
}

extension Hardware.Command {
    /// Its entry in `deskdays --help`.
    var entry: any ParsableCommand.Type {
        switch self {
        case .agent: AgentEntry.self
        case .doctor: DoctorEntry.self
        case .enroll: EnrollEntry.self
        case .qr: QREntry.self
        case .setup: SetupEntry.self
        }
    }
}

struct AgentEntry: HandedOver {
    static let command = Hardware.Command.agent
    @Argument(parsing: .allUnrecognized) var arguments: [String] = []
}

struct DoctorEntry: HandedOver {
    static let command = Hardware.Command.doctor
    @Argument(parsing: .allUnrecognized) var arguments: [String] = []
}

struct EnrollEntry: HandedOver {
    static let command = Hardware.Command.enroll
    @Argument(parsing: .allUnrecognized) var arguments: [String] = []
}

struct QREntry: HandedOver {
    static let command = Hardware.Command.qr
    @Argument(parsing: .allUnrecognized) var arguments: [String] = []
}

struct SetupEntry: HandedOver {
    static let command = Hardware.Command.setup
    @Argument(parsing: .allUnrecognized) var arguments: [String] = []
}

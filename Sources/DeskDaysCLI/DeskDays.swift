import ArgumentParser
import Foundation
import Logging

/// The `deskdays` root command: lists the subcommands, one per file. Both
/// executables run this same tree (see `HardwareCommand`).
package struct DeskDays: AsyncParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "deskdays",
        abstract: "Track office attendance against your employer's policy, privately, on this machine.",
        discussion: """
        DeskDays stores dates, statuses and the kind of check-in only, in a local \
        SQLite file; it never opens an internet connection.
        """,
        subcommands: [
            CheckInCommand.self,
            ClearCommand.self,
            EventCommand.self,
            StatusCommand.self,
            ReportCommand.self,
            DaysCommand.self,
            ExplainCommand.self,
            ExportCommand.self,
            ImportCommand.self,
            ConfigCommand.self,
            AgentCommand.self,
            DoctorCommand.self,
            NMEACommand.self,
            EnrollCommand.self,
            BenchIngestCommand.self,
            CalendarCommand.self,
            ChartCommand.self,
            QRCommand.self,
            // Subcommands are registered here, one line each.
        ]
    )

    /// Runs the command, turning every failure into one line on stderr and
    /// the exit codes of CLI.md: 0 success, 1 user error, 2 refusal to touch data.
    package static func start() async {
        // Commands talk to the user in sentences; library logs only reach
        // stderr at warning and above (DESKDAYS_LOG=debug|info|… for more).
        let level = processEnvironment["DESKDAYS_LOG"].flatMap(Logger.Level.init(rawValue:)) ?? .warning
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        do {
            let arguments = Array(CommandLine.arguments.dropFirst())
            var command = try parseFrequent(arguments) ?? parseAsRoot(arguments)
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            Failure.exit(for: error)
        }
    }

    /// The commands a status bar or a script runs over and over: each is
    /// parsed by swift-argument-parser from its own definition alone.
    /// Building the whole command tree (every subcommand's flags, found by
    /// reflection) costs more than the answer itself. Anything that needs
    /// the tree (help, completion scripts) takes the usual path.
    static let frequent: [String: any ParsableCommand.Type] = ["status": StatusCommand.self, "report": ReportCommand.self]

    static func parseFrequent(_ arguments: [String]) throws -> (any ParsableCommand)? {
        guard let name = arguments.first, let type = frequent[name] else { return nil }
        let rest = Array(arguments.dropFirst())
        let treeOnly = ["-h", "--help", "-help", "--version", "--experimental-dump-help"]
        if rest.contains(where: { treeOnly.contains($0) || $0.hasPrefix("--generate-completion") }) { return nil }
        return try type.parse(rest) as any ParsableCommand
    }
}

import Localization
import CommandSupport
import ArgumentParser
import DeskDaysCore
import Foundation
import Logging

/// The `deskdays` root command: lists the subcommands, one per file. The
/// hardware commands are `deskdays-hardware`'s (see `Hardware`).
package struct DeskDays: AsyncParsableCommand {
    package init() {}

    /// This build's version (`deskdays --version`).
    package static let version = "0.3.0"

    package static let configuration = CommandConfiguration(
        commandName: "deskdays",
        abstract: tr("Track office attendance against your employer's policy, privately, on this machine."),
        discussion: tr("""
        DeskDays stores dates, statuses and the kind of check-in only, in a local \
        SQLite file; it never opens an internet connection. The options --config, \
        --database, --today and --socket may come before or after the command.

        FILES
          $XDG_CONFIG_HOME/deskdays/config.toml
              the configuration (defaults when absent)
          $XDG_DATA_HOME/deskdays/deskdays.sqlite
              the database (mode 0600)
          $XDG_RUNTIME_DIR/deskdays/agent.sock
              the agent's control socket
          $XDG_RUNTIME_DIR/deskdays/status.json
              the current status, kept by the agent (also status.waybar,
              status.i3blocks)

        ENVIRONMENT
          DESKDAYS_CONFIG, DESKDAYS_DATABASE
              the files above
          DESKDAYS_TODAY (YYYY-MM-DD), DESKDAYS_NOW (RFC 3339)
              a fixed "now"
          DESKDAYS_LOG
              log level on stderr (debug, info, notice, warning)
          LC_ALL, LC_TIME, LC_NUMERIC, LANG
              dates and numbers in human output; NO_COLOR

        EXIT STATUS
          0 success; 1 a user error (one line on stderr naming the problem and the
            fix); 2 a refusal to touch data (a database from a newer version, not a
            DeskDays database, damaged, or a failed migration); the files are left
            as they were.
        """),
        version: version,
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
            ReconcileCommand.self,
            EvidenceCommand.self,
            BackupCommand.self,
            SyncCommand.self,
            ConfigCommand.self,
            EnableCommand.self,
            DisableCommand.self,
            NMEACommand.self,
            BenchIngestCommand.self,
            CalendarCommand.self,
            ChartCommand.self,
            PlanCommand.self,
            HolidaysCommand.self,
            PolicyCommand.self,
            // Subcommands are registered here, one line each.
        ] + Hardware.Command.allCases.map(\.entry)
    )

    /// Runs the command, turning every failure into one line on stderr and
    /// the exit codes of docs/cli.md: 0 success, 1 user error, 2 refusal to touch data.
    ///
    /// On the main thread: a command whose work is synchronous (`status`,
    /// `report`) runs there, and a status bar's `status` starts no thread
    /// of Swift's concurrency pool (docs/performance.md); the asynchronous
    /// commands go on to the pool as before.
    @MainActor package static func start() async {
        await run(DeskDays.self, on: MainActor.shared) { arguments in
            if Hardware.owns(arguments) { try Hardware.handOver() }
            return try parseFrequent(arguments)
        }
    }

    /// Parses the arguments against `root` (after `early`, which may answer
    /// first) and runs the command, on `actor` (nil: Swift's concurrency
    /// pool); shared by both executables.
    package static func run(_ root: any ParsableCommand.Type, on actor: isolated (any Actor)? = nil,
                            early: ([String]) throws -> (any ParsableCommand)? = { _ in nil }) async {
        // Commands talk to the user in sentences; library logs only reach
        // stderr at warning and above (DESKDAYS_LOG=debug|info|… for more).
        let level = processEnvironment["DESKDAYS_LOG"].flatMap(Logger.Level.init(rawValue:)) ?? .warning
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        do {
            let arguments = globalOptionsLast(Array(CommandLine.arguments.dropFirst()))
            var command = try early(arguments) ?? root.parseAsRoot(arguments)
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            Failure.finish(0)
        } catch {
            Failure.exit(for: error, root: root)
        }
    }

    /// The commands a status bar or a script runs over and over: each is
    /// parsed by swift-argument-parser from its own definition alone.
    /// Building the whole command tree (every subcommand's flags, found by
    /// reflection) costs more than the answer itself. Anything that needs
    /// the tree (help, completion scripts) takes the usual path.
    static let frequent: [String: any ParsableCommand.Type] = ["status": StatusCommand.self, "report": ReportCommand.self]

    /// The options every command takes, which may also come before the
    /// command (`deskdays --config X status`): moved after it, where the
    /// command's own definition reads them.
    static let leadingOptions = ["--config", "--database", "--today", "--socket"]

    static func globalOptionsLast(_ arguments: [String]) -> [String] {
        var leading: [String] = []
        var rest = arguments[...]
        while let first = rest.first, leadingOptions.contains(where: { first == $0 || first.hasPrefix($0 + "=") }) {
            leading.append(first)
            rest = rest.dropFirst()
            if !first.contains("="), let value = rest.first {
                leading.append(value)
                rest = rest.dropFirst()
            }
        }
        return Array(rest) + leading
    }

    static func parseFrequent(_ arguments: [String]) throws -> (any ParsableCommand)? {
        guard let name = arguments.first, let type = frequent[name] else { return nil }
        let rest = Array(arguments.dropFirst())
        let treeOnly = ["-h", "--help", "-help", "--version", "--experimental-dump-help"]
        if rest.contains(where: { treeOnly.contains($0) || $0.hasPrefix("--generate-completion") }) { return nil }
        return try type.parse(rest) as any ParsableCommand
    }
}

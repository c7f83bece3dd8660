import Localization
import AgentSocket
import ArgumentParser
import DeskDaysCore
import Foundation

/// Options every command shares: where the config and database live, and
/// what "now" is (docs/cli.md "Where things live").
package struct GlobalOptions: ParsableArguments {
    package init() {}

    @Option(name: .long, help: ArgumentHelp(tr("Configuration file (default: $XDG_CONFIG_HOME/deskdays/config.toml; env DESKDAYS_CONFIG).")))
    package var config: String?

    @Option(name: .long, help: ArgumentHelp(tr("Database file (default: $XDG_DATA_HOME/deskdays/deskdays.sqlite; env DESKDAYS_DATABASE).")))
    package var database: String?

    @Option(name: .long, help: ArgumentHelp(tr("Treat this date (YYYY-MM-DD) as today (env DESKDAYS_TODAY, DESKDAYS_NOW).")))
    package var today: String?

    /// The configuration path after flags, environment and XDG defaults.
    package var configPath: String {
        config.map(expandTilde) ?? paths.config
    }

    /// Whether the user named the configuration file (`--config`,
    /// `DESKDAYS_CONFIG`): then it must exist; only the default may be absent.
    package var configIsExplicit: Bool { config != nil || !(processEnvironment["DESKDAYS_CONFIG"] ?? "").isEmpty }

    /// Whether the user named the database (`--database`, `DESKDAYS_DATABASE`):
    /// then reading it requires it to exist.
    package var databaseIsExplicit: Bool { database != nil || !(processEnvironment["DESKDAYS_DATABASE"] ?? "").isEmpty }

    /// The database path after flags, environment and XDG defaults.
    package var databasePath: String {
        database.map(expandTilde) ?? paths.database
    }
}

/// The environment, read once: every `ProcessInfo.environment` call builds
/// a new dictionary, and a status bar runs this program often.
package let processEnvironment = ProcessInfo.processInfo.environment

/// Where things live, after this process's environment (`AgentPaths`).
package let paths = AgentPaths(environment: { processEnvironment[$0] },
                       homeFallback: { FileManager.default.homeDirectoryForCurrentUser.path })

/// `$VAR` when set and absolute (as the XDG spec requires), else `~/fallback`.
package func xdgDirectory(_ variable: String, fallback: String) -> String {
    paths.xdgDirectory(variable, fallback: fallback)
}

package func homeDirectory() -> String { paths.home }

package func expandTilde(_ path: String) -> String { paths.expandTilde(path) }

import ArgumentParser
import Foundation

/// Options every command shares: where the config and database live, and
/// what "now" is (docs/cli.md "Where things live").
package struct GlobalOptions: ParsableArguments {
    package init() {}

    @Option(name: .long, help: "Configuration file (default: $XDG_CONFIG_HOME/deskdays/config.toml; env DESKDAYS_CONFIG).")
    package var config: String?

    @Option(name: .long, help: "Database file (default: $XDG_DATA_HOME/deskdays/deskdays.sqlite; env DESKDAYS_DATABASE).")
    package var database: String?

    @Option(name: .long, help: "Treat this date (YYYY-MM-DD) as today (env DESKDAYS_TODAY, DESKDAYS_NOW).")
    package var today: String?

    /// The configuration path after flags, environment and XDG defaults.
    package var configPath: String {
        if let config { return expandTilde(config) }
        let env = processEnvironment
        if let path = env["DESKDAYS_CONFIG"], !path.isEmpty { return expandTilde(path) }
        return xdgDirectory("XDG_CONFIG_HOME", fallback: ".config") + "/deskdays/config.toml"
    }

    /// Whether the user named the configuration file (`--config`,
    /// `DESKDAYS_CONFIG`): then it must exist; only the default may be absent.
    package var configIsExplicit: Bool { config != nil || !(processEnvironment["DESKDAYS_CONFIG"] ?? "").isEmpty }

    /// Whether the user named the database (`--database`, `DESKDAYS_DATABASE`):
    /// then reading it requires it to exist.
    package var databaseIsExplicit: Bool { database != nil || !(processEnvironment["DESKDAYS_DATABASE"] ?? "").isEmpty }

    /// The database path after flags, environment and XDG defaults.
    package var databasePath: String {
        if let database { return expandTilde(database) }
        let env = processEnvironment
        if let path = env["DESKDAYS_DATABASE"], !path.isEmpty { return expandTilde(path) }
        return xdgDirectory("XDG_DATA_HOME", fallback: ".local/share") + "/deskdays/deskdays.sqlite"
    }
}

/// The environment, read once: every `ProcessInfo.environment` call builds
/// a new dictionary, and a status bar runs this program often.
package let processEnvironment = ProcessInfo.processInfo.environment

/// `$VAR` when set and absolute (as the XDG spec requires), else `~/fallback`.
func xdgDirectory(_ variable: String, fallback: String) -> String {
    if let value = processEnvironment[variable], value.hasPrefix("/") { return value }
    return homeDirectory() + "/" + fallback
}

func homeDirectory() -> String {
    if let home = processEnvironment["HOME"], !home.isEmpty { return home }
    return FileManager.default.homeDirectoryForCurrentUser.path
}

func expandTilde(_ path: String) -> String {
    if path == "~" { return homeDirectory() }
    if path.hasPrefix("~/") { return homeDirectory() + String(path.dropFirst()) }
    return path
}

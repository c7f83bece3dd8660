import Files
import Localization
import CommandSupport
import ArgumentParser
import DeskDaysConfig
import DeskDaysCore
import DeskDaysReports
import DeskDaysSync
import Foundation

/// `deskdays config`: check or show the configuration.
struct ConfigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config", abstract: tr("Check or show the configuration."),
        subcommands: [Check.self, Show.self])

    /// `config check`: every problem as `FILE:LINE: message`, exit 1; else exit 0.
    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "check", abstract: tr("Check the configuration file and list every problem."))

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            let path = global.configPath
            if !global.configIsExplicit, PathCheck.reach(path) == .absent {
                print(tr("\(path) does not exist; the defaults apply (60 % of workdays per quarter, Monday to Friday, no adapters)."))
                return
            }
            let configuration = try ConfigLoader.load(path: path, required: true)
            // Valid, but a rule that cannot work as written: said, exit 0.
            for warning in ConfigurationWarnings.list(configuration) { print(tr("\(path): warning: \(warning)")) }
            // Valid text, but a sync folder every command refuses is no working configuration.
            if let folder = configuration.sync?.folder, let problem = Synchronizer.folderProblem(folder) {
                throw CLIError("\(path): " + problem)
            }
            print(tr("\(path): OK"))
        }
    }

    /// `config show`: the effective configuration with defaults filled in.
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: tr("Print the effective configuration, defaults included."))

        @OptionGroup var global: GlobalOptions

        @Flag(help: ArgumentHelp(tr("Print it as JSON (the same tables and keys).")))
        var json = false

        func run() async throws {
            let session = try Session(global)
            let path = global.configPath
            if json { return print(session.configuration.jsonText(), terminator: "") }
            print("# " + (FileManager.default.fileExists(atPath: path) ? tr("Effective configuration from \(path)")
                                                                         : tr("Effective configuration from \(path) (missing: defaults)")))
            print(session.configuration.tomlText(), terminator: "")
        }
    }
}


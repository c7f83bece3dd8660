import ArgumentParser
import DeskDaysConfig
import DeskDaysCore
import DeskDaysReports
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
            for warning in Self.warnings(configuration) { print(tr("\(path): warning: \(warning)")) }
            print(tr("\(path): OK"))
        }

        /// What a valid configuration cannot do by construction (docs/cli.md "config check").
        static func warnings(_ configuration: Configuration) -> [String] {
            var warnings: [String] = []
            let policy = configuration.policy, target = policy.target
            let perWeek = policy.workdays.count
            if target.kind == .daysPerWeek || target.kind == .compliantWeeks, target.value > Double(perWeek) {
                let asked = Render.formatNumber(target.value)
                warnings.append(trn("the rule asks \(asked) office days a week, but a week has \(perWeek) workday ([policy] workdays): no week can be met; lower the value or add workdays",
                                    "the rule asks \(asked) office days a week, but a week has \(perWeek) workdays ([policy] workdays): no week can be met; lower the value or add workdays", perWeek))
            }
            let enabled = MethodSection.all.filter { $0.isEnabled(configuration) }
            if policy.minHours > 0, !enabled.isEmpty, enabled.allSatisfy { !$0.source.staysPresent } {
                let names = enabled.map(\.name).joined(separator: ", ")
                warnings.append(tr("min_hours is set, but every enabled method (\(names)) sees arrivals only, never a departure: no automatic day is ever long enough; enable wifi, wired or gps, or remove min_hours"))
            }
            return warnings
        }
    }

    /// `config show`: the effective configuration with defaults filled in.
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: tr("Print the effective configuration, defaults included."))

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            let session = try Session(global)
            let path = global.configPath
            print("# " + (FileManager.default.fileExists(atPath: path) ? tr("Effective configuration from \(path)")
                                                                         : tr("Effective configuration from \(path) (missing: defaults)")))
            print(session.configuration.tomlText(), terminator: "")
        }
    }
}

/// What `config check` warns of (a valid rule that cannot work as written), for `deskdays setup` too.
package enum ConfigurationWarnings {
    package static func list(_ configuration: Configuration) -> [String] { ConfigCommand.Check.warnings(configuration) }
}

import Localization
import CommandSupport
import ArgumentParser
import DeskDaysConfig
import DeskDaysCore
import DeskDaysSync
import Foundation

/// `deskdays policy share|adopt`: one policy for all devices (docs/cli.md
/// "Every device, one rule").
struct PolicyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "policy", abstract: tr("Share this device's policy with your other devices, or adopt the shared one."),
        subcommands: [Share.self, Adopt.self])

    /// The sync folder, or the one sentence saying why there is no sharing here.
    static func settings(_ session: Session) throws -> SyncSettings {
        let settings = try SyncCommand.settings(session)
        guard settings.sharePolicy else {
            throw CLIError(tr("[sync] share_policy = false in \(session.options.configPath): this device keeps its own policy; remove that line to share it."))
        }
        return settings
    }

    /// `policy share`: this device's policy becomes the one every device answers from.
    struct Share: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "share", abstract: tr("Make this device's policy the one every device answers from."))

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            let session = try Session(global)
            let settings = try PolicyCommand.settings(session)
            guard session.ownConfiguration.ownsPolicy else {
                throw CLIError(tr("\(global.configPath) has no [policy] of its own to share; add one (`deskdays setup` asks for it), or keep the shared one."))
            }
            do {
                _ = try PolicyAgreement.share(session.ownConfiguration, settings: settings, memory: PolicyMemory(databasePath: global.databasePath),
                                              clock: session.clock())
            } catch {
                throw CLIError("\(error).")
            }
            print(Printable.escaped(tr("Shared this device's policy as \(settings.folder)/\(SharedPolicy.fileName); every device answers from it now.")))
        }
    }

    /// `policy adopt`: this device drops its own policy and answers from the shared one.
    struct Adopt: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "adopt", abstract: tr("Answer from the shared policy: this device's own [policy] leaves its configuration."))

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            let session = try Session(global)
            let folder = try PolicyCommand.settings(session).folder
            guard let shared = session.policyAgreement?.shared else {
                throw CLIError(tr("The sync folder \(folder) holds no shared policy yet; `deskdays policy share` shares this device's."))
            }
            let name = shared.name, day = shared.day(in: session.policy.timeZone)
            let path = global.configPath
            if session.ownConfiguration.ownsPolicy {
                let text: String
                do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
                    throw ConfigError(problems: [ConfigProblem(file: path, line: 1,
                        message: tr("cannot read the file (\(ConfigLoader.reason(error))); check that it exists, is readable and is UTF-8 text"))])
                }
                guard let edited = ConfigEditor.replacingPolicy(in: text, with: "") else {
                    throw CLIError(tr("\(path) writes its policy in a way this command does not edit; remove [policy], its tables and [[holidays]] by hand."))
                }
                do {
                    if let backup = try ConfigEditor.replaceKeepingBackup(path, with: edited) {
                        print(tr("This device's own policy is kept in \(backup)."))
                    }
                } catch {
                    throw CLIError(error.description)
                }
                PolicyMemory(databasePath: global.databasePath).save(PolicyMemory.State(own: "none", told: nil))
            }
            print(Printable.escaped(tr("This device answers from the policy \(name) shared on \(session.reportLocale.day(day)).")))
        }
    }
}

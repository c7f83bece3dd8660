import Localization
import CommandSupport
import ArgumentParser
import DeskDaysConfig
import DeskDaysCore
import Foundation

/// `deskdays enable METHOD` and `deskdays disable METHOD`: `enabled` in the
/// method's section, every other line and comment kept (docs/cli.md
/// "Setting up"). A running agent reloads the edited file by itself.
struct EnableCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "enable", abstract: tr("Turn a check-in method on (nfc, qr, wifi, wired, gps)."))

    @Argument(help: ArgumentHelp(tr("The method: nfc, qr, wifi, wired or gps.")))
    var method: String

    @OptionGroup var global: GlobalOptions

    func run() async throws { try MethodSwitch.set(method, on: true, global: global) }
}

struct DisableCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "disable", abstract: tr("Turn a check-in method off (its rules stay)."))

    @Argument(help: ArgumentHelp(tr("The method: nfc, qr, wifi, wired or gps.")))
    var method: String

    @OptionGroup var global: GlobalOptions

    func run() async throws { try MethodSwitch.set(method, on: false, global: global) }
}

enum MethodSwitch {
    static func set(_ name: String, on: Bool, global: GlobalOptions) throws {
        let names = MethodSection.all.map(\.name)
        guard let section = MethodSection.all.first(where: { $0.name == name.lowercased() }) else {
            throw CLIError(tr("\(name) is not a check-in method; use one of \(names.joined(separator: ", "))."))
        }
        let path = global.configPath
        let configuration = try ConfigLoader.load(path: path, required: global.configIsExplicit)
        if on, !section.hasRules(configuration) {
            throw CLIError(tr("\(section.name) has no rule yet: run `deskdays enroll \(section.name)` first (it learns what to recognise), then `deskdays enable \(section.name)`."))
        }
        let changed: Bool
        do {
            changed = try ConfigEditor.setFlag(on, key: "enabled", inTable: section.name, file: path) { section.setEnabled(&$0, on) }
        } catch let manual as ConfigEditor.ManualEditNeeded {
            throw CLIError(tr("\(path) is laid out in a way this edit does not follow; nothing was written: \(manual.instruction)."))
        }
        if !changed {
            print(on ? tr("\(section.name) check-ins are already on in \(path).") : tr("\(section.name) check-ins are already off in \(path)."))
            return
        }
        print(on ? tr("\(section.name) check-ins are on: enabled = true under [\(section.name)] in \(path). A running agent picks it up within seconds.")
                 : tr("\(section.name) check-ins are off: enabled = false under [\(section.name)] in \(path); its rules stay. A running agent picks it up within seconds."))
    }
}

import AgentSocket
import DeskDaysConfig
import DeskDaysCore
import DeskDaysDesktop
import Foundation
import Localization
import Logging
import Spawn
import SystemBus

/// The D-Bus methods the window writes and reads through (`Days`,
/// `SetRange`, `Clear`, `Plan`, `WritePlan`, `Chart`, `Enroll`, `Configure`): the same code as the command line, so
/// no check, figure or message is written twice.
///
/// `Days`, `SetRange` and `Clear` run `deskdays-cli` (beside this
/// executable) with this agent's configuration, database and socket, at the
/// agent's now: a write comes back to this agent's control socket as the
/// command's own does. `Configure` edits the file through `ConfigEditor`
/// (comments kept), whose save reloads the agent (`ReloadService`).
struct DesktopCommands: Sendable {
    let configPath: String?
    let databasePath: String
    let socketPath: String?
    let clock: AgentClock
    let logger: Logger

    /// Runs `deskdays-cli ARGUMENTS` for this agent's files; `arguments[0]` is the command.
    func run(_ arguments: [String]) async -> CommandOutcome {
        let (found, looked) = Companion.locate("deskdays-cli")
        guard let program = found else {
            return .refused(.init(name: "Failed", message: tr("deskdays-cli is not installed (looked for \(looked.joined(separator: " and "))); reinstall DeskDays with `make install`.")))
        }
        // A configuration not written yet (the first run) is the defaults, which a named file may not be.
        let config = configPath.flatMap { FileManager.default.fileExists(atPath: $0) ? ["--config=\($0)"] : nil } ?? []
        var files = ["--database=\(databasePath)"] + config
        // `days`, `chart` and `config show` only read, `enroll` writes the configuration (which reloads
        // this agent); the record's writes go to this agent when it listens.
        if !["days", "chart", "config", "enroll"].contains(arguments.first ?? ""), let socketPath { files.append("--socket=\(socketPath)") }
        // An agent on a set clock (DESKDAYS_NOW, the tests' manual clock) answers for its own now.
        let overrides: [String: String?] = clock.isSystemClock ? [:]
            : ["DESKDAYS_NOW": clock.now().formatted(.iso8601), "DESKDAYS_CLOCK": nil, "DESKDAYS_TODAY": nil]
        do {
            let result = try await Program.run(program, arguments + files, overrides: overrides)
            guard result.status == 0, !result.terminatedBySignal else {
                logger.info("\(arguments[0]) for the D-Bus interface ended with status \(result.status)")
                return .refused(.init(status: result.terminatedBySignal ? 128 + result.status : result.status, stderr: result.stderr))
            }
            return .printed(result.stdout)
        } catch {
            return .refused(.init(name: "Failed", message: tr("cannot start \(program) (\(error)); reinstall DeskDays with `make install`.")))
        }
    }

    /// `Configure(key, value)`: the key set through `ConfigEditor`, or why not.
    func configure(_ key: String, _ value: BusValue) -> Result<String, CommandOutcome.Refusal> {
        guard let configPath else {
            return .failure(.init(name: "Failed", message: tr("This agent runs without a configuration file; nothing was changed.")))
        }
        let edit: ConfigEditor.Value
        switch value {
        case .string(let text): edit = .string(text)
        case .bool(let flag): edit = .bool(flag)
        case .integer(let number): edit = .integer(number)
        case .double(let number): edit = .double(number)
        case .strings(let texts): edit = .strings(texts)
        }
        do {
            guard try ConfigEditor.set(edit, key: key, file: configPath) else {
                return .success(tr("\(key) is already \(edit.literal); nothing changed."))
            }
            logger.notice("\(key) set through the D-Bus interface; the configuration is read again")
            return .success(tr("Set \(key) to \(edit.literal)."))
        } catch let error as ConfigError {
            return .failure(.init(name: "InvalidInput", message: error.problems.map(\.message).joined(separator: "; ")))
        } catch let manual as ConfigEditor.ManualEditNeeded {
            return .failure(.init(name: "Failed", message: tr("The file's layout does not allow this edit; \(manual.instruction) in \(configPath) by hand.")))
        } catch {
            return .failure(.init(name: "Failed", message: tr("cannot write \(configPath) (\(ConfigLoader.reason(error))); nothing was changed.")))
        }
    }
}

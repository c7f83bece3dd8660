import Localization
import CommandSupport
import ArgumentParser
import DeskDaysConfig
import DeskDaysCore
import DeskDaysExchange
import DeskDaysPipeline
import DeskDaysStore
import Foundation

/// Maps every error to its message and exit code (docs/cli.md "Exit codes").
enum Failure {
    static func exit(for error: Error, root: any ParsableCommand.Type) -> Never {
        let (message, code) = describe(error, root: root)
        if let message, !message.isEmpty {
            writeAll(code == 0 ? STDOUT_FILENO : STDERR_FILENO, message.hasSuffix("\n") ? message : message + "\n")
        }
        finish(code)
    }

    /// Ends the process with `code` once standard output is flushed, without
    /// running C libraries' exit handlers: a device thread may still be inside
    /// libpcsclite or libnfc (an enrolment ending on a refused card), and
    /// their handlers free what that call is using (a crash at exit, status 11).
    static func finish(_ code: Int32) -> Never {
        fflush(nil)
        _exit(code)
    }

    static func describe(_ error: Error, root: any ParsableCommand.Type = DeskDays.self) -> (String?, Int32) {
        switch error {
        case let error as CLIError:
            return ("deskdays: " + error.message, error.code)
        case let error as StoreError:
            return ("deskdays: " + error.description, error.exitCode)
        case let error as ConfigError:
            return (error.description, 1)
        case let error as CheckInPipeline.Refusal:
            return ("deskdays: " + tr("Refused: \(error.description); nothing was stored."), 1)
        case let error as ImportError:
            let sentence = error.description + (error.description.hasSuffix(".") ? "" : ".")
            return ("deskdays: " + tr("\(sentence) Nothing was imported."), 1)
        case let error as ExitCode:
            return (nil, error.rawValue)
        default:
            // Argument parsing, --help and --version come from swift-argument-parser.
            let code = root.exitCode(for: error).rawValue
            if code == 0 { return (root.fullMessage(for: error), 0) }
            // One line, not the usage screen; its usage errors are EX_USAGE (64),
            // and docs/cli.md has one code for user errors.
            var message = ParserWords.translate(root.message(for: error).trimmingCharacters(in: .whitespacesAndNewlines))
            message = message.split(separator: "\n").joined(separator: " ")
            // Ends as a sentence, in whichever script it was written ("。", "؟").
            if let last = message.last, !".。!?！？؟".contains(last) { message += "." }
            return ("deskdays: " + tr("\(message) See `deskdays help` for the options."), 1)
        }
    }
}


import Files
import Localization
import ArgumentParser
import CommandSupport
import DeskDaysConfig
import DeskDaysCore
import Foundation
import NFCAdapter
import Spawn
#if canImport(Glibc)
import Glibc
#endif

/// `deskdays setup` (docs/cli.md "Setting up"): a guided first run on a
/// terminal. The policy in plain questions with defaults, then each check-in
/// method with what this machine shows of it, enrolled through the method's
/// own `enroll` command and turned on with `enable`'s edit; a commented
/// `config.toml` (an existing one kept as `config.toml.bak`), `config
/// check`, and the user unit on request. Plain lines on stdin, echoed by the
/// terminal: nothing to install, and it works over ssh and in tmux.
public struct SetupCommand: AsyncParsableCommand {
    public init() {}

    public static let configuration = CommandConfiguration(
        commandName: Hardware.Command.setup.rawValue, abstract: Hardware.Command.setup.abstract)

    @OptionGroup var global: GlobalOptions

    public func run() async throws {
        guard isatty(STDIN_FILENO) == 1 else {
            throw CLIError(tr("deskdays setup asks its questions on a terminal, and standard input is not one; write the configuration with `deskdays config show` as a start, then `deskdays enroll METHOD`, `deskdays enable METHOD` and `deskdays config check`."))
        }
        let path = global.configPath
        var prompt = Prompt()
        print(tr("DeskDays setup: a few questions, then your configuration in \(path). Enter keeps the answer in [brackets]; Ctrl-D stops."))
        if FileManager.default.fileExists(atPath: path) {
            guard try prompt.yes(tr("\(path) exists. Replace it (the old one is kept as config.toml.bak)?"), default: false) else {
                print(tr("Nothing changed."))
                return
            }
        }

        // The policy, in the employer's words.
        print("")
        print(tr("Your employer's rule"))
        let kinds: [(String, String)] = [
            ("percent", tr("a share of workdays (such as 60 %)")),
            ("days_per_week", tr("days a week (such as 3)")),
            ("days_per_period", tr("days in a month, quarter or year (such as 36 a quarter)")),
            ("compliant_weeks", tr("weeks with enough office days (such as 8 weeks of 2 days a quarter)")),
        ]
        let kind = kinds[try prompt.choice(tr("How does your employer count office days?"), kinds.map(\.1), default: 0)].0
        var target = "kind = \"\(kind)\"\n"
        switch kind {
        case "percent":
            target += "value = \(try prompt.number(tr("What share of workdays, in percent?"), default: 60, 1...100))\n"
        case "days_per_week":
            target += "value = \(try prompt.number(tr("How many office days a week?"), default: 3, 1...7))\n"
        case "days_per_period":
            target += "value = \(try prompt.number(tr("How many office days in the period?"), default: 36, 1...366))\n"
        default:
            target += "value = \(try prompt.number(tr("How many office days make a week count?"), default: 2, 1...7))\n"
            target += "weeks = \(try prompt.number(tr("How many such weeks in the period?"), default: 8, 1...53))\n"
        }
        let periods = ["week", "month", "quarter", "year"]
        let period = kind == "days_per_week" ? "quarter"
            : periods[try prompt.choice(tr("Over which period?"), [tr("a week"), tr("a month"), tr("a quarter"), tr("a year")], default: 2)]
        var fiscal = 1
        if period == "quarter" || period == "year" {
            fiscal = try prompt.number(tr("In which month does your employer's year start (1 = January)?"), default: 1, 1...12)
        }
        let zone = try prompt.line(tr("Your time zone?"), default: TimeZone.current.identifier) { TimeZone(identifier: $0) != nil }
        let workdays = try prompt.line(tr("Your workdays?"), default: "mon tue wed thu fri") { text in
            let words = text.split(separator: " ")
            return !words.isEmpty && words.allSatisfy { Weekday(key: String($0)) != nil }
        }.split(separator: " ").compactMap { Weekday(key: String($0))?.key }

        let text = """
        # DeskDays configuration, written by `deskdays setup` (run it again to start over).
        # Every key, with its default: docs/cli.md "Configuration", or `deskdays config show`.

        [policy]
        timezone = "\(zone)"
        workdays = [\(workdays.map { "\"\($0)\"" }.joined(separator: ", "))]
        # The period the rule counts over; a year or a quarter starts in this month.
        period = "\(period)"
        fiscal_year_start_month = \(fiscal)

        # The rule: \(kinds.first { $0.0 == kind }!.1).
        [policy.target]
        \(target)
        # Check-in methods: `deskdays enroll METHOD` learns a rule, `deskdays enable METHOD` turns it on.

        """
        try write(text, to: path)

        // Each method: what this machine shows, and whether to use it.
        print("")
        print(tr("How DeskDays sees you arrive"))
        for method in CheckInMethod.all {
            let found = Self.detect(method.name)
            print("  \(method.name): " + (found ?? tr("nothing found on this machine")))
            guard try prompt.yes(Self.question(method.name), default: found != nil && method.name == "nfc") else { continue }
            do {
                let command = try method.enroll.parseAsRoot(["--config", path])
                if var asynchronous = command as? AsyncParsableCommand { try await asynchronous.run() } else {
                    var synchronous = command
                    try synchronous.run()
                }
                _ = try ConfigEditor.setFlag(true, key: "enabled", inTable: method.name, file: path) { method.section.setEnabled(&$0, true) }
                print(tr("\(method.name) check-ins are on."))
            } catch {
                printError("deskdays: \(error)")
                print(tr("\(method.name) is left off; `deskdays enroll \(method.name)` tries again."))
            }
        }

        // The file as the agent will read it.
        print("")
        let configuration = try ConfigLoader.load(path: path, required: true)
        for warning in ConfigurationWarnings.list(configuration) { print(tr("\(path): warning: \(warning)")) }
        print(tr("\(path): OK"))

        if try prompt.yes(tr("Start the agent now and at every login (systemctl --user enable --now deskdays)?"), default: true) {
            let started = try? await Program.run("/usr/bin/env", ["systemctl", "--user", "enable", "--now", "deskdays"])
            if started?.status == 0 {
                print(tr("The agent runs; `deskdays status` shows where you stand."))
            } else {
                let why = started.map { $0.stderr.trimmingCharacters(in: .whitespacesAndNewlines) } ?? tr("systemctl not found")
                print(tr("systemctl could not start it (\(why)); run `deskdays agent` in a terminal instead, or install the package's user unit."))
            }
        } else {
            print(tr("Start the agent with `systemctl --user enable --now deskdays` (or `deskdays agent`); `deskdays status` shows where you stand."))
        }
    }

    /// The configuration, replacing an old one kept as `.bak`; 0600 in a 0700 folder.
    /// (Through a symbolic link, which stays; the backup a plain file beside `path`: `ConfigEditor.replaceKeepingBackup`.)
    private func write(_ text: String, to path: String) throws {
        do {
            if let backup = try ConfigEditor.replaceKeepingBackup(path, with: text) {
                print(tr("The old configuration is kept as \(backup)."))
            }
        } catch {
            throw CLIError(error.description)
        }
        print(tr("Wrote \(path)."))
    }

    /// The question for a method, in the words of its hardware.
    static func question(_ method: String) -> String {
        switch method {
        case "nfc": return tr("Check in by tapping a tag on your desk reader (it is learnt now: have the tag at hand)?")
        case "gps": return tr("Check in when this machine's GPS sees you at the office (be there now)?")
        case "qr": return tr("Check in by showing a QR code to the camera (it is made now)?")
        case "wifi": return tr("Check in on the office Wi-Fi (be connected to it now)?")
        default: return tr("Check in when this laptop is docked at the office (be docked now)?")
        }
    }

    /// What this machine shows of a method, read without opening a device
    /// (`deskdays doctor` says more); nil when nothing.
    static func detect(_ method: String) -> String? {
        func entries(_ folder: String) -> [String] { (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] }
        switch method {
        case "nfc":
            let readers = (NFCTagReader.pcscReaderNames() ?? []).filter { NFCTagReader.watches(reader: $0, only: nil) }
            return readers.isEmpty ? nil : tr("reader \(readers.joined(separator: ", "))")
        case "wifi":
            let wireless = entries("/sys/class/net").filter { FileManager.default.fileExists(atPath: "/sys/class/net/\($0)/wireless") }
            return wireless.isEmpty ? nil : tr("Wi-Fi interface \(wireless.joined(separator: ", "))")
        case "wired":
            let route = (try? String(contentsOfFile: "/proc/net/route", encoding: .utf8)) ?? ""
            let gateway = route.split(separator: "\n").dropFirst().first { $0.split(separator: "\t").dropFirst().first == "00000000" }
            return gateway.map { tr("a default route through \($0.split(separator: "\t").first ?? "")") }
        case "gps":
            if FileManager.default.fileExists(atPath: "/run/gpsd.sock") { return tr("gpsd") }
            let serial = entries("/dev").filter { $0.hasPrefix("ttyACM") || $0.hasPrefix("ttyUSB") }
            return serial.isEmpty ? nil : tr("serial ports \(serial.sorted().joined(separator: ", "))")
        default:
            let cameras = entries("/dev").filter { $0.hasPrefix("video") }
            return cameras.isEmpty ? nil : tr("camera /dev/\(cameras.sorted()[0])")
        }
    }
}

/// Questions and answers on the terminal: a line each, Enter for the default.
struct Prompt {
    /// Ctrl-D (end of input): setup stops, what it wrote so far stays.
    struct Stopped: Error, CustomStringConvertible {
        var description: String { tr("setup stopped; what it wrote so far stays (run it again to start over)") }
    }

    mutating func ask(_ question: String, _ shown: String) throws -> String {
        // Written straight to the terminal, unbuffered: the question shows before the answer is read.
        // (What `print` buffered first: fflush(nil) flushes every stream.)
        fflush(nil)
        let text = "\(question) [\(shown)] "
        _ = text.withCString { write(STDOUT_FILENO, $0, strlen($0)) }
        guard let line = readLine() else {
            print("")
            throw CLIError(Stopped().description)
        }
        return line.trimmingCharacters(in: .whitespaces)
    }

    mutating func yes(_ question: String, default answer: Bool) throws -> Bool {
        while true {
            let reply = try ask(question, answer ? tr("Y/n") : tr("y/N")).lowercased()
            if reply.isEmpty { return answer }
            if [tr("y"), tr("yes"), "y", "yes"].contains(reply) { return true }
            if [tr("n"), tr("no"), "n", "no"].contains(reply) { return false }
            print(tr("Answer y or n."))
        }
    }

    mutating func choice(_ question: String, _ options: [String], default index: Int) throws -> Int {
        print(question)
        // In the language's digits; the answer may be typed in any (`Localization.latinDigits`).
        for (number, option) in options.enumerated() { print("  \(Localization.figures(String(number + 1))). \(option)") }
        while true {
            let reply = try ask(tr("Number"), Localization.figures(String(index + 1)))
            if reply.isEmpty { return index }
            if let number = Int(Localization.latinDigits(reply)), options.indices.contains(number - 1) { return number - 1 }
            print(tr("Answer a number from \(1) to \(options.count)."))
        }
    }

    mutating func number(_ question: String, default value: Int, _ range: ClosedRange<Int>) throws -> Int {
        while true {
            let reply = try ask(question, Localization.figures(String(value)))
            if reply.isEmpty { return value }
            if let number = Int(Localization.latinDigits(reply)), range.contains(number) { return number }
            print(tr("Answer a whole number from \(range.lowerBound) to \(range.upperBound)."))
        }
    }

    mutating func line(_ question: String, default value: String, valid: (String) -> Bool) throws -> String {
        while true {
            let reply = try ask(question, value)
            if reply.isEmpty { return value }
            if valid(reply) { return reply }
            print(tr("\"\(reply)\" is not an answer this question takes; Enter keeps \(value)."))
        }
    }
}

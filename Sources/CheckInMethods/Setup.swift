import Files
import Localization
import ArgumentParser
import CommandSupport
import DeskDaysReports
import DeskDaysConfig
import DeskDaysCore
import Foundation
import NFCAdapter
import DeskDaysSync
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
        // Re-run: the file's answers are the defaults, and what is not asked about stays.
        var text = "", current = Configuration()
        if FileManager.default.fileExists(atPath: path) {
            do {
                current = try ConfigLoader.load(path: path, required: true)
                text = try String(contentsOfFile: path, encoding: .utf8)
                print(tr("\(path) exists: setup starts from its answers and keeps what it does not ask about (the old file is kept as config.toml.bak)."))
            } catch {
                current = Configuration()
                print(tr("\(path) has problems (`deskdays config check` lists them); setup starts from the defaults and replaces it (the old file is kept as config.toml.bak)."))
            }
        }
        if text.isEmpty {
            text = """
            # DeskDays configuration, written by `deskdays setup` (run it again to change the answers).
            # Every key, with its default: docs/cli.md "Configuration", or `deskdays config show`.

            """
        }

        // Several devices: a shared folder, and the policy another device shared there.
        var folder = current.sync?.folder
        if folder == nil {
            let answer = try prompt.line(tr("A folder your devices share (Syncthing, Nextcloud), to keep one record on all of them, or none?"),
                                         default: "none") { $0 == "none" || Synchronizer.folderProblem(Self.expanded($0)) == nil }
            if answer != "none" {
                folder = Self.expanded(answer)
                text = try Self.edit(text, .string(answer), "folder", ["sync"])
            }
        }
        var useShared = false
        // (Unless it is this device's own: then the questions change it for every device.)
        if let folder, current.sync?.sharePolicy ?? true, let shared = SharedPolicy.newest(in: folder, now: .now()).policy,
           !current.ownsPolicy || shared.configuration.policyText() != current.policyText() {
            let name = shared.name, day = shared.day(in: shared.configuration.policy.timeZone)
            print(tr("The sync folder holds the policy \(name) shared on \(ReportLocale.process.day(day))."))
            useShared = try prompt.yes(tr("Use it on this device too?"), default: true)
        }
        let policy = useShared ? "" : try askPolicy(current, &prompt)
        guard let edited = ConfigEditor.replacingPolicy(in: text, with: policy, holidays: useShared) else {
            throw CLIError(tr("\(path) writes its policy in a way this command does not edit; remove [policy], its tables and [[holidays]] by hand."))
        }
        text = edited

        // This device's own: the reminder.
        let reminder = try prompt.line(tr("At what time should DeskDays remind you when nothing is recorded (HH:MM, or off)?"),
                                       default: current.checkin.reminderTime?.description ?? "off") { $0 == "off" || TimeOfDay($0) != nil }
        text = try Self.edit(text, .string(reminder), "reminder_time", ["checkin"])
        let (_, problems) = ConfigLoader.parse(text, file: path, baseDirectory: (path as NSString).deletingLastPathComponent)
        guard problems.isEmpty else { throw ConfigError(problems: problems) }
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

    /// The policy questions, in the employer's words, from `current`'s
    /// answers; the `[policy]` tables they make (docs/policy.md's keys).
    func askPolicy(_ current: Configuration, _ prompt: inout Prompt) throws -> String {
        let old = current.policy
        print("")
        print(tr("Your employer's rule"))
        let kinds: [(Target.Kind, String)] = [
            (.percent, tr("a share of workdays (such as 60 %)")),
            (.daysPerWeek, tr("days a week (such as 3)")),
            (.daysPerPeriod, tr("days in a month, quarter or year (such as 36 a quarter)")),
            (.compliantWeeks, tr("weeks with enough office days (such as 8 weeks of 2 days a quarter)")),
            (.bestWeeks, tr("days in your best weeks of a window (such as 20 days in the best 8 of 12 weeks)")),
        ]
        let kind = kinds[try prompt.choice(tr("How does your employer count office days?"), kinds.map(\.1),
                                           default: kinds.firstIndex { $0.0 == old.target.kind } ?? 0)].0
        let same = kind == old.target.kind
        func value(_ question: String, _ fallback: Double, _ range: ClosedRange<Double>) throws -> String {
            try prompt.decimal(question, default: same ? old.target.value : fallback, range)
        }
        var target = "kind = \"\(kind.rawValue)\"\n"
        switch kind {
        case .percent: target += "value = \(try value(tr("What share of workdays, in percent?"), 60, 1...100))\n"
        case .daysPerWeek: target += "value = \(try value(tr("How many office days a week?"), 3, 1...7))\n"
        case .daysPerPeriod: target += "value = \(try value(tr("How many office days in the period?"), 36, 1...366))\n"
        case .bestWeeks:
            target += "value = \(try value(tr("How many office days in the best weeks together?"), 20, 1...366))\n"
            let window = try prompt.number(tr("Over a window of how many weeks?"), default: same ? old.target.window : 12, 1...520)
            target += "best = \(try prompt.number(tr("How many of its best weeks count?"), default: same ? min(old.target.best, window) : min(8, window), 1...window))\n"
            target += "window = \(window)\n"
        default:
            target += "value = \(try value(tr("How many office days make a week count?"), 2, 1...7))\n"
            target += "weeks = \(try prompt.number(tr("How many such weeks in the period?"), default: same ? old.target.weeks : 8, 1...53))\n"
        }
        // (A window of best weeks is its own period.)
        let periods: [PeriodKind] = [.week, .month, .quarter, .year, .rolling]
        let period = kind == .bestWeeks ? old.period
            : periods[try prompt.choice(tr("Over which period?"), [tr("a week"), tr("a month"), tr("a quarter"), tr("a year"), tr("rolling weeks")],
                                        default: periods.firstIndex(of: old.period) ?? 2)]
        // A weekly rule over a longer period: each week on its own, or an average (docs/policy.md).
        if kind == .daysPerWeek, period != .week {
            let round = try prompt.choice(tr("Is the weekly figure owed every week, or on average over the period?"),
                                          [tr("every week (each week rounded up)"), tr("on average over the period (rounded once)")],
                                          default: old.target.round == .period ? 1 : 0)
            target += "round = \"\(round == 1 ? "period" : "week")\"\n"
        }
        if [.daysPerWeek, .daysPerPeriod, .compliantWeeks].contains(kind) {
            let proRata = try prompt.yes(tr("Do holidays, leave and sick days reduce the days you owe? (yes: pro rata; no: only when fewer days remain)"),
                                         default: old.target.reduce == .proRata)
            target += "reduce = \"\(proRata ? "pro-rata" : "cap")\"\n"
        }
        var keys = ""
        if period == .quarter || period == .year {
            let month = try prompt.number(tr("In which month does your employer's year start (1 = January)?"), default: old.fiscalYearStartMonth, 1...12)
            keys += "fiscal_year_start_month = \(month)\n"
        }
        let starts = try prompt.line(tr("From which date does the rule apply (YYYY-MM-DD, or none)?"),
                                     default: old.starts?.description ?? "none") { $0 == "none" || LocalDate($0)?.isSupported == true }
        if starts != "none" { keys += "starts = \"\(starts)\"\n" }
        let zone = try prompt.line(tr("Your time zone?"), default: old.timeZone.identifier) { TimeZone(identifier: $0) != nil }
        let workdays = try prompt.line(tr("Your workdays?"), default: old.workdays.sorted().map(\.key).joined(separator: " ")) { text in
            let words = text.split(separator: " ")
            return !words.isEmpty && words.allSatisfy { Weekday(key: String($0)) != nil }
        }.split(separator: " ").compactMap { Weekday(key: String($0))?.key }
        // Public holidays: a region of the shipped list, or an .ics file.
        let data = HolidayData.installed
        let holidays = try prompt.line(tr("Public holidays: a region such as DE-BY (`deskdays holidays --regions` lists them), an .ics file, or none?"),
                                       default: current.holidaysRegion ?? current.holidayCalendars.first ?? "none") { answer in
            answer == "none" || data?.region(answer) != nil || (answer.hasSuffix(".ics") && FileManager.default.fileExists(atPath: Self.expanded(answer)))
        }
        if let region = data?.region(holidays) {
            keys += "holidays_region = \"\(region)\"\n"
        } else if holidays != "none" {
            keys += "holidays_ics = \(ConfigEditor.quoted(holidays))\n"
        }
        // Time on site, and the day's start only when it matters.
        let hours = try prompt.decimal(tr("How many hours on site make an office day (0: any check-in)?"), default: old.minHours, 0...24)
        if hours != "0" {
            keys += "min_hours = \(hours)\n"
            let start = try prompt.line(tr("When does your working day start (before noon; 04:00 keeps a night shift on one day)?"),
                                        default: old.dayStartText) { TimeOfDay($0).map { $0.hour < 12 } ?? false }
            if start != "00:00" { keys += "day_starts_at = \"\(start)\"\n" }
        }
        // Kept as they were: what setup does not ask.
        if old.weekStart != Policy().weekStart { keys += "week_start = \"\(old.weekStart.key)\"\n" }
        if old.countNonWorkdays { keys += "count_non_workdays = true\n" }
        if period == .rolling {
            keys += "rolling_weeks = \(try prompt.number(tr("How many weeks does the rolling window hold?"), default: old.rollingWeeks, 1...520))\n"
        } else if old.rollingWeeks != Policy().rollingWeeks {
            keys += "rolling_weeks = \(old.rollingWeeks)\n"
        }
        var counts = ""
        let treatments: [Treatment] = [.excused, .office, .remote]
        let options = [tr("they leave the count (excused: the default)"), tr("as office days"), tr("as remote days")]
        for (status, question) in [(AttendanceStatus.sick, tr("How do sick days count?")), (.vacation, tr("How does vacation count?"))] {
            let treatment = treatments[try prompt.choice(question, options, default: treatments.firstIndex(of: old.treatment(of: status)) ?? 0)]
            counts += "\(status.rawValue) = \"\(treatment.rawValue)\"\n"
        }
        for status in [AttendanceStatus.travel, .leave] where old.treatment(of: status) != Policy().treatment(of: status) {
            counts += "\(status.rawValue) = \"\(old.treatment(of: status).rawValue)\"\n"
        }
        return """
        [policy]
        timezone = "\(zone)"
        workdays = [\(workdays.map { "\"\($0)\"" }.joined(separator: ", "))]
        # The period the rule counts over; a year or a quarter starts in this month.
        period = "\(period.rawValue)"
        \(keys)
        # The rule: \(kinds.first { $0.0 == kind }!.1).
        [policy.target]
        \(target)
        # Sick days and vacation: office, remote, or excused (out of the count).
        [policy.counts]
        \(counts)

        """
    }

    /// `text` with one key set, or the sentence saying what to add by hand.
    static func edit(_ text: String, _ value: ConfigEditor.Value, _ key: String, _ table: [String]) throws -> String {
        guard let edited = ConfigEditor.setting(value, key: key, inTable: table, in: text) else {
            throw CLIError(tr("set \(key) = \(value.literal) under [\(table.joined(separator: "."))]"))
        }
        return edited
    }

    /// A path as typed: `~` is the home folder.
    static func expanded(_ path: String) -> String {
        path == "~" || path.hasPrefix("~/") ? (ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()) + path.dropFirst() : path
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
    public static func detect(_ method: String) -> String? {
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

    /// A number with at most two decimals in `range`, as TOML writes it ("3", "4.5").
    mutating func decimal(_ question: String, default value: Double, _ range: ClosedRange<Double>) throws -> String {
        let shown = value == value.rounded() ? String(Int(value)) : String(value)
        while true {
            let reply = try ask(question, shown)
            if reply.isEmpty { return shown }
            if let number = Double(reply), range.contains(number), abs(number * 100 - (number * 100).rounded()) < 1e-9 {
                return number == number.rounded() ? String(Int(number)) : String(number)
            }
            print(tr("Answer a number from \(Int(range.lowerBound)) to \(Int(range.upperBound)), with at most two decimals."))
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

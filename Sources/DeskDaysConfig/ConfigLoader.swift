import Files
import Localization
import DeskDaysCore
import Foundation
import ICal
import TOMLKit

/// Reads `config.toml` (docs/cli.md "Configuration") into a `Configuration`,
/// collecting every problem as `FILE:LINE: message` instead of stopping at
/// the first. Unknown keys are errors so a typo never silently disables an
/// adapter.
public enum ConfigLoader {
    /// Loads the file at `path`; a missing file means the defaults, unless
    /// the user named it (`required`: `--config`, `DESKDAYS_CONFIG`), when it
    /// is an error. A path that cannot be reached (a dangling symbolic link,
    /// a loop, a folder that cannot be searched) is always an error: "nothing
    /// there" would silently mean another policy (docs/cli.md).
    /// `horizon` bounds the expansion of yearly holidays from an iCalendar file.
    public static func load(path: String, required: Bool = false, horizon: LocalDate? = nil) throws(ConfigError) -> Configuration {
        switch PathCheck.reach(path) {
        case .present:
            // Another user's policy (a symbolic link into their files, a file
            // they can write) is not yours: refused, as ssh refuses such a key.
            if let problem = PathCheck.trustProblem(path) {
                throw ConfigError(problems: [ConfigProblem(file: path, line: 0, message: tr("the configuration is not used: \(problem)"))])
            }
        case .absent where !required: return Configuration()
        case .absent:
            throw ConfigError(problems: [ConfigProblem(file: path, line: 0,
                message: tr("the configuration file does not exist; fix the path, or create it (`deskdays config show` prints the defaults)"))])
        case .unreachable(let reason):
            throw ConfigError(problems: [ConfigProblem(file: path, line: 0,
                message: tr("the configuration file cannot be reached (\(reason)); fix the path or its permissions"))])
        }
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ConfigError(problems: [ConfigProblem(file: path, line: 1,
                message: tr("cannot read the file (\(Self.reason(error))); check that it exists, is readable and is UTF-8 text"))])
        }
        let base = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let (configuration, problems) = parse(text, file: path, baseDirectory: base, horizon: horizon)
        guard problems.isEmpty else { throw ConfigError(problems: problems) }
        return configuration
    }

    /// Parses TOML text; returns the configuration (defaults where invalid)
    /// and every problem found.
    public static func parse(_ text: String, file: String, baseDirectory: String = ".",
                             horizon: LocalDate? = nil) -> (Configuration, [ConfigProblem]) {
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            return (Configuration(), [ConfigProblem(file: file, line: error.source.begin.line,
                                                    message: tr("not valid TOML: \(error.description)"))])
        } catch {
            return (Configuration(), [ConfigProblem(file: file, line: 1, message: tr("not valid TOML: \(error)"))])
        }
        var reader = TableReader(file: file, locator: KeyLocator(text: text))
        var configuration = Configuration()
        var calendars: [String] = []
        reader.read(table, path: "") { reader, key, value, path in
            switch key {
            case "policy":
                configuration.ownsPolicy = true
                reader.table(value, path) {
                    readPolicy(&$0, $1, &configuration.policy, &calendars, &configuration.holidaysRegion,
                               &configuration.holidaySources, baseDirectory, horizon)
                }
            case "holidays":
                configuration.ownsPolicy = true
                readHolidays(&reader, value, path, &configuration.policy, &configuration.holidaySources)
            case "checkin": reader.table(value, path) { readCheckin(&$0, $1, &configuration.checkin) }
            case "desktop": reader.table(value, path) { readDesktop(&$0, $1, &configuration.desktop) }
            case "reminders": reader.table(value, path) { readReminders(&$0, $1, &configuration.reminders) }
            case "plan": reader.table(value, path) { readPlan(&$0, $1, &configuration.plan) }
            case "sync": reader.table(value, path) { readSync(&$0, $1, &configuration.sync, baseDirectory: baseDirectory) }
            case "calendar": reader.table(value, path) { readCalendar(&$0, $1, &configuration.calendar, baseDirectory: baseDirectory) }
            default:
                // A check-in method's section (`MethodSection`).
                guard let method = MethodSection.all.first(where: { $0.name == key }) else { return false }
                reader.table(value, path) { method.read(&$0, $1, &configuration) }
            }
            return true
        }
        // The region's public holidays add to the others: a date `[[holidays]]`
        // or `holidays_ics` names keeps that name.
        if let region = configuration.holidaysRegion, let data = HolidayData.installed {
            for (date, holiday) in data.holidays(region: region) where configuration.policy.holidays[date] == nil {
                configuration.policy.holidays[date] = holiday.name
                configuration.holidaySources[date] = .region(region)
            }
        }
        // In file order, as a compiler lists errors (stable for one line).
        configuration.holidayCalendars = calendars
        let problems = reader.problems.enumerated()
            .sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }.map(\.element)
        return (configuration, problems)
    }

    /// The system's words for a file error (its `strerror`), for one-sentence messages.
    public static func reason(_ error: Error) -> String {
        if let error = error as? CocoaError, let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return error.localizedDescription
    }

    // MARK: - Sections

    static func readPolicy(_ reader: inout TableReader, _ table: TOMLTable, _ policy: inout Policy,
                           _ calendars: inout [String], _ region: inout String?, _ sources: inout [LocalDate: HolidaySource],
                           _ baseDirectory: String, _ horizon: LocalDate?) {
        reader.read(table, path: "policy", known: ["timezone", "workdays", "week_start", "period", "fiscal_year_start_month",
                                                    "rolling_weeks", "count_non_workdays", "day_starts_at", "starts", "min_hours",
                                                    "holidays_ics", "holidays_region", "target", "counts"]) { reader, key, value, path in
            switch key {
            case "timezone":
                if let name = reader.string(value, path) {
                    if let zone = TimeZone(identifier: name) {
                        policy.timeZone = zone
                    } else {
                        reader.problem(path, tr("unknown time zone \"\(name)\"; use an IANA name such as \"Europe/London\""))
                    }
                }
            case "workdays":
                if let names = reader.strings(value, path) {
                    var days: Set<Weekday> = []
                    for name in names {
                        if let day = Weekday(key: name) { days.insert(day) } else {
                            reader.problem(path, tr("unknown weekday \"\(name)\"; use mon, tue, wed, thu, fri, sat, sun"))
                        }
                    }
                    if names.isEmpty { reader.problem(path, tr("workdays is empty; list at least one weekday")) }
                    policy.workdays = days
                }
            case "week_start":
                if let name = reader.string(value, path) {
                    if let day = Weekday(key: name) { policy.weekStart = day } else {
                        reader.problem(path, tr("unknown weekday \"\(name)\"; use mon, tue, wed, thu, fri, sat, sun"))
                    }
                }
            case "period": reader.choice(value, path) { policy.period = $0 }
            case "fiscal_year_start_month":
                if let month = reader.int(value, path, in: 1...12, unit: tr("a month number")) { policy.fiscalYearStartMonth = month }
            case "rolling_weeks":
                if let weeks = reader.int(value, path, in: 1...520, unit: tr("a number of weeks")) { policy.rollingWeeks = weeks }
            case "count_non_workdays":
                if let flag = reader.bool(value, path) { policy.countNonWorkdays = flag }
            case "day_starts_at":
                // Before noon: --today and DESKDAYS_TODAY mean 12:00 on the
                // date, which must stay on that date (docs/policy.md).
                if let time = reader.timeOfDay(value, path, allowOff: false) {
                    if time.hour < 12 {
                        policy.dayStartMinutes = time.hour * 60 + time.minute
                    } else {
                        reader.problem(path, tr("day_starts_at = \"\(time)\" is not before noon; a night shift's day starts between \"00:00\" and \"11:59\" (\"04:00\": a 02:30 tap counts on the day before)"))
                    }
                }
            case "starts":
                if let date = reader.date(value, path) { policy.starts = date }
            case "min_hours":
                if let hours = reader.number(value, path, in: 0...24, unit: tr("hours on site; 0 is off")) { policy.minHours = hours }
            case "holidays_ics":
                if let name = reader.string(value, path) {
                    calendars.append(readICS(&reader, path, name, baseDirectory: baseDirectory, horizon: horizon,
                                             into: &policy, sources: &sources))
                }
            case "holidays_region":
                // "" is none, as when the key is left out.
                if let name = reader.string(value, path), !name.isEmpty { region = readRegion(&reader, path, name) }
            case "target": reader.table(value, path) { readTarget(&$0, $1, &policy.target, workdays: policy.workdays.count) }
            case "counts":
                reader.table(value, path) { reader, table in
                    reader.read(table, path: path) { reader, key, value, path in
                        guard let status = AttendanceStatus(rawValue: key), status != .office, status != .remote else {
                            return false
                        }
                        reader.choice(value, path) { (treatment: Treatment) in policy.counts[status] = treatment }
                        return true
                    }
                }
            default: return false
            }
            return true
        }
    }

    static func readTarget(_ reader: inout TableReader, _ table: TOMLTable, _ target: inout Target, workdays: Int) {
        var valuePath: String?
        var value: Double?
        reader.read(table, path: "policy.target", known: ["kind", "value", "reduce", "round", "weeks", "best", "window"]) { reader, key, node, path in
            switch key {
            case "kind": reader.choice(node, path) { target.kind = $0 }
            case "value":
                valuePath = path
                if let number = reader.number(node, path) { value = number }
            case "reduce": reader.choice(node, path) { target.reduce = $0 }
            case "round": reader.choice(node, path) { target.round = $0 }
            case "weeks": if let n = reader.int(node, path, in: 1...53, unit: tr("a number of weeks")) { target.weeks = n }
            case "best": if let n = reader.int(node, path, in: 1...520, unit: tr("a number of weeks")) { target.best = n }
            case "window": if let n = reader.int(node, path, in: 1...520, unit: tr("a number of weeks")) { target.window = n }
            default: return false
            }
            return true
        }
        let path = valuePath ?? "policy.target"
        if let value {
            let hundredths = (value * 100).rounded()
            if abs(value * 100 - hundredths) > 1e-6 {
                reader.problem(path, tr("value \(value) has more than two decimals; round it to two"))
            } else if value <= 0 {
                reader.problem(path, tr("value must be greater than 0"))
            } else if target.kind == .percent, value > 100 {
                reader.problem(path, tr("a percentage target of \(value) is over 100 %; use a value from 0 to 100"))
            } else if target.kind == .daysPerWeek || target.kind == .compliantWeeks, value > 7 {
                reader.problem(path, tr("\(value) office days a week is more than a week has; use at most \(workdays)"))
            } else if value > Double(Target.mostOfficeDays) {
                // Checked before the conversion below, which traps on a number beyond Int (value = 1e308).
                reader.outOfRange(path, "\(value)", 1...Target.mostOfficeDays, unit: tr("office days"))
            } else {
                target.hundredths = Int(hundredths)
            }
        } else if valuePath == nil, target.kind != .percent {
            reader.problem(path, tr("kind \"\(target.kind.rawValue)\" needs a value (office days)"))
        }
        if target.kind == .compliantWeeks, target.weeks == 0 {
            reader.problem("policy.target", tr("kind \"compliant_weeks\" needs weeks = K (how many compliant weeks the period needs)"))
        }
        if target.kind == .bestWeeks {
            if target.best == 0 {
                reader.problem("policy.target", tr("kind \"best_weeks\" needs best = B (how many of the best weeks count)"))
            } else if target.best > target.window {
                reader.problem("policy.target", tr("best = \(target.best) is more than window = \(target.window) weeks; make best at most window"))
            }
        }
    }

    /// Adds the all-day events of the calendar `name` to `policy`'s holidays; returns the file's path.
    static func readICS(_ reader: inout TableReader, _ path: String, _ name: String, baseDirectory: String,
                        horizon: LocalDate?, into policy: inout Policy, sources: inout [LocalDate: HolidaySource]) -> String {
        var file = name
        if file == "~" || file.hasPrefix("~/") {
            file = (ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()) + file.dropFirst()
        } else if !file.hasPrefix("/") {
            file = baseDirectory + "/" + file
        }
        guard let data = FileManager.default.contents(atPath: file), let text = ICalendar.text(of: data) else {
            reader.problem(path, tr("cannot read the holiday calendar \(file); fix the path or remove holidays_ics"))
            return file
        }
        // Without a horizon, every date DeskDays keeps (the reader stops at 2099-12-31).
        let limit = horizon ?? LocalDate.supported.upperBound
        do {
            for event in try ICalendar.read(text, through: limit).events {
                for date in event.dates where policy.holidays[date] == nil {
                    policy.holidays[date] = event.summary
                    sources[date] = .calendarFile(file)
                }
            }
        } catch {
            reader.problem(path, tr("the holiday calendar \(file) is not usable: \(error)"))
        }
        return file
    }

    /// `holidays_region`, as the shipped data spells it; nil (and a problem) when the data does not know it.
    static func readRegion(_ reader: inout TableReader, _ path: String, _ name: String) -> String? {
        guard let data = HolidayData.installed else {
            reader.problem(path, tr("the holiday data shipped with DeskDays is missing (share/deskdays/holidays.tsv); reinstall DeskDays or remove holidays_region"))
            return nil
        }
        if let region = data.region(name) { return region }
        let near = data.suggestions(for: name).map { "\"\($0)\"" }.joined(separator: ", ")
        reader.problem(path, near.isEmpty
            ? tr("unknown holidays_region \"\(name)\"; use a country code and, optionally, a subdivision, such as \"DE-BY\" (`deskdays holidays --regions` lists them)")
            : tr("unknown holidays_region \"\(name)\"; did you mean \(near)? (`deskdays holidays --regions` lists them)"))
        return nil
    }

    static func readHolidays(_ reader: inout TableReader, _ value: TOMLValueConvertible, _ path: String, _ policy: inout Policy,
                             _ sources: inout [LocalDate: HolidaySource]) {
        guard let array = value.array else {
            reader.problem(path, tr("holidays must be an array of tables ([[holidays]] with date and name)"))
            return
        }
        for index in 0..<array.count {
            let itemPath = "\(path)[\(index)]"
            guard let table = array[index].table else {
                reader.problem(itemPath, tr("each holiday must be a table with date and name"))
                continue
            }
            var date: LocalDate?
            var name = "Holiday"
            reader.read(table, path: itemPath) { reader, key, node, path in
                switch key {
                case "date": date = reader.date(node, path)
                case "name": if let text = reader.string(node, path) { name = text }
                default: return false
                }
                return true
            }
            if let date {
                policy.holidays[date] = name
                sources[date] = .configuration
            } else if table["date"] == nil {
                reader.problem(itemPath, tr("a holiday needs a date (YYYY-MM-DD)"))
            }
        }
    }

    static func readDesktop(_ reader: inout TableReader, _ table: TOMLTable, _ settings: inout DesktopSettings) {
        reader.read(table, path: "desktop") { reader, key, value, path in
            switch key {
            case "tray": if let flag = reader.bool(value, path) { settings.tray = flag }
            case "confirm": if let flag = reader.bool(value, path) { settings.confirm = flag }
            default: return false
            }
            return true
        }
    }

    static func readReminders(_ reader: inout TableReader, _ table: TOMLTable, _ settings: inout RemindersSettings) {
        reader.read(table, path: "reminders") { reader, key, value, path in
            switch key {
            case "summary":
                guard let text = reader.string(value, path) else { break }
                if text == "off" {
                    settings.summary = nil
                } else if let weekly = WeeklyTime(text) {
                    settings.summary = weekly
                } else {
                    reader.problem(path, tr("summary must be a weekday and a time, such as \"fri 16:00\", or \"off\""))
                }
            default: return false
            }
            return true
        }
    }

    static func readPlan(_ reader: inout TableReader, _ table: TOMLTable, _ options: inout PlanOptions) {
        reader.read(table, path: "plan") { reader, key, value, path in
            guard key == "prefer" || key == "avoid", let items = reader.strings(value, path) else { return key == "prefer" || key == "avoid" }
            if key == "prefer" {
                switch PlanOptions.weekdays(items) {
                case .success(let days): options.prefer = days
                case .failure(let problem): reader.problem(path, problem.sentence)
                }
            } else {
                for item in items {
                    switch PlanOptions.dates(item) {
                    case .success(let span): options.avoid.append(span)
                    case .failure(let problem): reader.problem(path, problem.sentence)
                    }
                }
            }
            return true
        }
    }

    static func readCheckin(_ reader: inout TableReader, _ table: TOMLTable, _ settings: inout CheckinSettings) {
        reader.read(table, path: "checkin") { reader, key, value, path in
            switch key {
            case "reminder_time": settings.reminderTime = reader.timeOfDay(value, path)
            case "fallback_time": settings.fallbackTime = reader.timeOfDay(value, path)
            case "fallback_status":
                if let text = reader.string(value, path) {
                    if text == "none" {
                        settings.fallbackStatus = nil
                    } else if let status = AttendanceStatus(named: text), status != .office {
                        settings.fallbackStatus = status
                    } else {
                        reader.problem(path, tr("fallback_status \"\(text)\" is not allowed; use \"remote\" or \"none\""))
                    }
                }
            default: return false
            }
            return true
        }
    }

    /// The section of a network method (`[wifi]`, `[wired]`): `enabled`, and
    /// each `[[SECTION.networks]]` rule read by `rule`, which is given the
    /// rule's default name (`wifi-2` for the second).
    static func readNetworks(_ reader: inout TableReader, _ table: TOMLTable, section: String, enabled: inout Bool,
                             rule: (inout TableReader, TOMLTable, _ path: String, _ defaultName: String) -> Void) {
        reader.read(table, path: section) { reader, key, value, path in
            switch key {
            case "enabled": if let flag = reader.bool(value, path) { enabled = flag }
            case "networks":
                var index = 0
                reader.tables(value, path) { reader, table, path in
                    index += 1
                    rule(&reader, table, path, "\(section)-\(index)")
                }
            default: return false
            }
            return true
        }
    }

    /// A rule's `name`, checked as a rule name.
    static func ruleName(_ reader: inout TableReader, _ value: TOMLValueConvertible, _ path: String) -> String? {
        let name = reader.string(value, path)
        if let text = name, let problem = RuleName.problem(text) { reader.problem(path, problem) }
        return name
    }

    /// A list of MAC addresses (`bssids`, `gateway_mac`), lower-cased; each
    /// entry that is not one is a problem worded by `wrong` and left out. Nil:
    /// not a list of strings (reported).
    static func macs(_ reader: inout TableReader, _ value: TOMLValueConvertible, _ path: String,
                     wrong: (String) -> String) -> [String]? {
        guard let texts = reader.strings(value, path) else { return nil }
        var macs: [String] = []
        for text in texts {
            if isMAC(text) { macs.append(text.lowercased()) } else { reader.problem(path, wrong(text)) }
        }
        return macs
    }

    /// `aa:bb:cc:dd:ee:ff`, six pairs of hex digits separated by colons, either case.
    static func isMAC(_ text: String) -> Bool {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        return parts.count == 6 && parts.allSatisfy { $0.count == 2 && $0.allSatisfy { $0.isASCII && $0.isHexDigit } }
    }

    static func readCalendar(_ reader: inout TableReader, _ table: TOMLTable, _ settings: inout CalendarSettings?,
                             baseDirectory: String) {
        var folder: String?, write = false
        var words = CalendarSettings.defaultWords
        reader.read(table, path: "calendar") { reader, key, value, path in
            if let meaning = CalendarDays.Meaning.allCases.first(where: { $0.key == key }) {
                guard let list = reader.strings(value, path) else { return true }
                if list.contains(where: { CalendarSettings.key($0).isEmpty }) {
                    reader.problem(path, tr("\(key) lists an empty word; give event titles such as \"Office\""))
                }
                words[meaning] = list
                return true
            }
            switch key {
            case "folder":
                guard let text = reader.string(value, path) else { break }
                if text.isEmpty {
                    reader.problem(path, tr("folder is empty; name the vdir your calendar is synchronised to, e.g. \"~/.local/share/calendars/work\""))
                } else if text == "~" || text.hasPrefix("~/") {
                    folder = (ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()) + text.dropFirst()
                } else {
                    folder = text.hasPrefix("/") ? text : baseDirectory + "/" + text
                }
            case "write": if let flag = reader.bool(value, path) { write = flag }
            default: return false
            }
            return true
        }
        // A word names one meaning: listed twice, which one it gives would be a guess.
        var seen: [String: CalendarDays.Meaning] = [:]
        for meaning in CalendarDays.Meaning.allCases {
            for word in words[meaning, default: []] {
                let key = CalendarSettings.key(word)
                if let other = seen[key], other != meaning {
                    reader.problem("calendar.\(meaning.key)", tr("\"\(word)\" is listed under both \(other.key) and \(meaning.key); keep it under one"))
                }
                seen[key] = meaning
            }
        }
        guard let folder else {
            reader.problem("calendar", tr("[calendar] needs folder = \"…\" (the vdir vdirsyncer or khal keeps)"))
            return
        }
        var calendar = CalendarSettings(folder: folder)
        calendar.words = words
        calendar.write = write
        settings = calendar
    }

    static func readSync(_ reader: inout TableReader, _ table: TOMLTable, _ settings: inout SyncSettings?, baseDirectory: String) {
        var folder: String?, name: String?, database: String?, share = true
        func resolved(_ text: String) -> String {
            if text == "~" || text.hasPrefix("~/") {
                return (ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()) + text.dropFirst()
            }
            return text.hasPrefix("/") ? text : baseDirectory + "/" + text
        }
        reader.read(table, path: "sync") { reader, key, value, path in
            switch key {
            case "folder":
                guard let text = reader.string(value, path) else { break }
                if text.isEmpty {
                    reader.problem(path, tr("folder is empty; name the folder your synchroniser shares, e.g. \"~/Sync/deskdays\""))
                } else {
                    folder = resolved(text)
                }
            case "database":
                guard let text = reader.string(value, path) else { break }
                if text.isEmpty {
                    reader.problem(path, tr("database is empty; name the database that syncs, or leave the key out for the one given with this configuration"))
                } else {
                    database = resolved(text)
                }
            case "device_name":
                guard let text = reader.string(value, path) else { break }
                // Shown by other devices: one line of plain text.
                if !SyncSettings.isDeviceName(text) {
                    reader.problem(path, tr("device_name must be 1 to 64 characters on one line, e.g. \"laptop\""))
                } else {
                    name = text
                }
            case "share_policy": if let flag = reader.bool(value, path) { share = flag }
            default: return false
            }
            return true
        }
        if let folder {
            settings = SyncSettings(folder: folder, deviceName: name, database: database)
            settings?.sharePolicy = share
        } else if table["folder"] == nil {
            reader.problem("sync", tr("[sync] needs folder, the folder your synchroniser shares (e.g. \"~/Sync/deskdays\")"))
        }
    }
}

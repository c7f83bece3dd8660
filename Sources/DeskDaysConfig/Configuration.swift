import Localization
import DeskDaysCore
import Foundation

/// Everything `config.toml` says, validated. Each section has the defaults
/// of docs/cli.md; a missing file is `Configuration()`.
public struct Configuration: Sendable, Equatable {
    public var policy = Policy()
    public var checkin = CheckinSettings()
    public var nfc = NFCSettings()
    public var qr = QRSettings()
    public var wifi = WiFiSettings()
    public var wired = WiredSettings()
    public var gps = GPSSettings()
    public var desktop = DesktopSettings()
    public var reminders = RemindersSettings()
    /// `[sync]`: nil when absent (sync off).
    public var sync: SyncSettings?
    /// The iCalendar files read for holidays (`policy.holidays_ics`), as
    /// resolved paths: with the configuration file itself, every file the
    /// configuration depends on (`deskdays status` remembers their state).
    public var holidayCalendars: [String] = []
    /// `[calendar]`: nil when absent.
    public var calendar: CalendarSettings?
    /// `[plan]`: the weekdays `deskdays plan` prefers and the dates it leaves out.
    public var plan = PlanOptions()
    /// `policy.holidays_region` ("DE-BY", as the shipped data spells it), and
    /// where each of `policy.holidays` came from (`explain`, `deskdays holidays`).
    public var holidaysRegion: String?
    public var holidaySources: [LocalDate: HolidaySource] = [:]
    /// Whether the file has a policy of its own (`[policy]` or `[[holidays]]`):
    /// with `[sync]`, only such a device shares it (`SharedPolicy`).
    public var ownsPolicy = false

    public init() {}
}

/// Where a holiday of the configuration comes from.
public enum HolidaySource: Sendable, Equatable {
    /// The public holidays of `holidays_region`, from the shipped data.
    case region(String)
    /// The iCalendar file named by `holidays_ics` (its resolved path).
    case calendarFile(String)
    /// A `[[holidays]]` entry.
    case configuration
}

/// `[calendar]`: a vdir read at each answer (docs/cli.md "Calendar").
public struct CalendarSettings: Sendable, Equatable {
    /// The vdir, `~` and relative paths resolved.
    public var folder: String
    /// Each meaning's words (SUMMARY or a CATEGORIES value, whole, any case).
    public var words: [CalendarDays.Meaning: [String]] = CalendarSettings.defaultWords
    /// Manual office records are written back as events.
    public var write = false

    public static let defaultWords: [CalendarDays.Meaning: [String]] = [
        .office: ["Office"], .remote: ["WFH", "Remote"], .vacation: ["Vacation", "PTO", "Out of office"],
        .sick: ["Sick"], .holiday: ["Holiday"],
    ]

    public init(folder: String) {
        self.folder = folder
    }

    /// The meaning a SUMMARY or CATEGORIES value names, if any.
    public func meaning(of value: String) -> CalendarDays.Meaning? {
        wordTable()[Self.key(value)]
    }

    /// Every word in the form `key(_:)` gives it, with its meaning (the
    /// greater where one is listed twice): built once per reading of a folder.
    public func wordTable() -> [String: CalendarDays.Meaning] {
        var table: [String: CalendarDays.Meaning] = [:]
        for (meaning, list) in words {
            for word in list { table[Self.key(word)] = max(meaning, table[Self.key(word)] ?? meaning) }
        }
        return table
    }

    /// Compared whole, trimmed, case-insensitive.
    public static func key(_ text: String) -> String {
        // Not Foundation's trimming: this runs for every event of the folder.
        var scalars = Substring(text).unicodeScalars
        while let first = scalars.first, first.properties.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.properties.isWhitespace { scalars.removeLast() }
        return String(scalars).lowercased()
    }
}

/// `[sync]`: several devices, one record (docs/cli.md "Sync").
public struct SyncSettings: Sendable, Equatable {
    /// The folder the user's synchroniser shares, `~` and relative paths resolved.
    public var folder: String
    /// This device's name in the other devices' `sync status` and `explain` (default: the host name).
    public var deviceName: String
    /// `database`: the database that syncs, `~` and relative paths
    /// resolved; nil: the one given with this configuration (docs/cli.md "Sync").
    public var database: String?
    /// `share_policy`: the policy travels in the folder (`policy.json`); false: this device keeps its own.
    public var sharePolicy = true

    public init(folder: String, deviceName: String? = nil, database: String? = nil) {
        self.folder = folder
        self.deviceName = deviceName ?? Self.hostName()
        self.database = database
    }

    /// Whether `text` can name a device (other devices show it): 1 to 64 characters on one line.
    public static func isDeviceName(_ text: String) -> Bool {
        !text.trimmingCharacters(in: .whitespaces).isEmpty && text.count <= 64
            && !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
    }

    /// The host name, as `uname -n` prints it.
    public static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        let name = String(cString: buffer)
        return name.isEmpty ? "localhost" : name
    }
}

/// `[reminders]`: the weekly summary.
public struct RemindersSettings: Sendable, Equatable {
    /// `summary = "fri 16:00"`: the week's office days against the rule and
    /// the period's standing, as a notification at that weekday and time
    /// (the policy's zone); nil: `"off"`.
    public var summary: WeeklyTime? = WeeklyTime(weekday: .friday, time: TimeOfDay(hour: 16, minute: 0)!)
    public init() {}
}

/// A weekday and a time of day, written `"fri 16:00"`.
public struct WeeklyTime: Sendable, Equatable, CustomStringConvertible {
    public var weekday: Weekday
    public var time: TimeOfDay

    public init(weekday: Weekday, time: TimeOfDay) {
        self.weekday = weekday
        self.time = time
    }

    public init?(_ text: String) {
        let words = text.split(separator: " ", omittingEmptySubsequences: true)
        guard words.count == 2, let weekday = Weekday(key: String(words[0])), let time = TimeOfDay(String(words[1])) else { return nil }
        self.init(weekday: weekday, time: time)
    }

    public var description: String { "\(weekday.key) \(time)" }
}

/// `[checkin]`: reminders and the end-of-day fallback.
public struct CheckinSettings: Sendable, Equatable {
    public var reminderTime: TimeOfDay? = TimeOfDay(hour: 10, minute: 30)
    public var fallbackTime: TimeOfDay? = TimeOfDay(hour: 20, minute: 0)
    /// nil means `"none"`: no fallback record is written.
    public var fallbackStatus: AttendanceStatus? = .remote
    public init() {}
}

/// `[desktop]`: the session-bus side of the agent.
public struct DesktopSettings: Sendable, Equatable {
    /// A StatusNotifierItem tray icon, shown whenever a StatusNotifierWatcher
    /// (the desktop's tray) is on the session bus; nothing is shown without one.
    public var tray = true
    /// One notification for the day's first automatic check-in (the method,
    /// the rule, the time and this week's count); `false`: none.
    public var confirm = true
    public init() {}
}

extension Configuration {
    /// The identifiers this configuration holds so that nothing else has to
    /// (SSIDs, BSSIDs, gateway MACs, tag UIDs, NDEF texts, QR payloads and prefixes), in
    /// the form `ruleNameProblem` compares.
    public var identifiers: Set<String> {
        var all = nfc.tags.flatMap { [$0.uid, $0.ndef].compactMap { $0 } }
        all += wifi.networks.flatMap { [$0.ssid] + $0.bssids }
        all += wired.networks.flatMap(\.gatewayMACs)
        all += qr.payloads + qr.prefixes
        return Set(all.map(Self.comparable))
    }

    /// Why `name` cannot be stored as a check-in's rule: not a name, or one of
    /// the identifiers above (which never reach the database or the log).
    public func ruleNameProblem(_ name: String) -> String? {
        if let problem = RuleName.problem(name) { return problem }
        if identifiers.contains(Self.comparable(name)) {
            return tr("that rule name is an identifier from the configuration (an SSID, a MAC, a tag UID or a payload), which is never stored; give the rule's name instead")
        }
        return nil
    }

    /// Case and separators do not make an identifier another one.
    static func comparable(_ text: String) -> String {
        String(text.lowercased().filter { $0 != ":" && $0 != "-" && $0 != " " })
    }
}

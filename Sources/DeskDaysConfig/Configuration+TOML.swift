import DeskDaysCore
import Foundation
import TOMLKit

extension Configuration {
    /// The effective configuration, defaults filled in, as TOML (`config show`).
    /// Holidays read from an iCalendar file are listed too, so the user sees
    /// exactly which dates are out of the arithmetic.
    public func tomlText() -> String { table().convert(to: .toml) + "\n" }

    /// The same as JSON (`config show --json`; the window's Preferences read it).
    public func jsonText() -> String { table().convert(to: .json) + "\n" }

    private func table() -> TOMLTable {
        let root = policyTable(listing: policy.holidays)

        let checkinTable = TOMLTable()
        checkinTable["reminder_time"] = checkin.reminderTime?.description ?? "off"
        checkinTable["fallback_time"] = checkin.fallbackTime?.description ?? "off"
        checkinTable["fallback_status"] = checkin.fallbackStatus?.rawValue ?? "none"
        root["checkin"] = checkinTable

        for section in MethodSection.all {
            root[section.name] = section.table(self)
        }

        let desktopTable = TOMLTable()
        desktopTable["tray"] = desktop.tray
        desktopTable["confirm"] = desktop.confirm
        root["desktop"] = desktopTable
        let remindersTable = TOMLTable()
        remindersTable["summary"] = reminders.summary?.description ?? "off"
        root["reminders"] = remindersTable
        if plan != PlanOptions() {
            let planTable = TOMLTable()
            planTable["prefer"] = TOMLArray(plan.prefer.sorted().map(\.key))
            planTable["avoid"] = TOMLArray(plan.avoid.map { (span: DateSpan) -> String in span.start == span.end ? "\(span.start)" : "\(span.start)..\(span.end)" })
            root["plan"] = planTable
        }
        if let sync {
            let syncTable = TOMLTable()
            syncTable["folder"] = sync.folder
            syncTable["device_name"] = sync.deviceName
            if let database = sync.database { syncTable["database"] = database }
            if !sync.sharePolicy { syncTable["share_policy"] = false }
            root["sync"] = syncTable
        }
        if let calendar {
            let calendarTable = TOMLTable()
            calendarTable["folder"] = calendar.folder
            for meaning in CalendarDays.Meaning.allCases {
                calendarTable[meaning.key] = TOMLArray(calendar.words[meaning] ?? [])
            }
            calendarTable["write"] = calendar.write
            root["calendar"] = calendarTable
        }
        return root
    }

    /// The policy alone as TOML: `[policy]` with every key (defaults filled
    /// in) and `[[holidays]]` (`SharedPolicy`'s text: what travels to the
    /// other devices). The region stays a name (every device ships its
    /// data); an .ics file's dates are listed, since its path is this
    /// device's. Two configurations with the same rule give the same text.
    public func policyText() -> String {
        policyTable(listing: policy.holidays.filter { holidaySources[$0.key].map { if case .region = $0 { false } else { true } } ?? true })
            .convert(to: .toml) + "\n"
    }

    /// This configuration with the policy of `other` (its holidays and their sources) instead of its own.
    public func usingPolicy(of other: Configuration) -> Configuration {
        var configuration = self
        configuration.policy = other.policy
        configuration.holidaysRegion = other.holidaysRegion
        configuration.holidaySources = other.holidaySources
        configuration.holidayCalendars = other.holidayCalendars
        return configuration
    }

    private func policyTable(listing listed: [LocalDate: String]) -> TOMLTable {
        let root = TOMLTable()
        let policyTable = TOMLTable()
        policyTable["timezone"] = policy.timeZone.identifier
        policyTable["workdays"] = TOMLArray(policy.workdays.sorted().map(\.key))
        policyTable["week_start"] = policy.weekStart.key
        policyTable["period"] = policy.period.rawValue
        policyTable["fiscal_year_start_month"] = policy.fiscalYearStartMonth
        policyTable["rolling_weeks"] = policy.rollingWeeks
        policyTable["count_non_workdays"] = policy.countNonWorkdays
        policyTable["day_starts_at"] = policy.dayStartText
        if let starts = policy.starts { policyTable["starts"] = starts.description }
        // The region's holidays are listed below with the others, as an .ics file's are.
        if let holidaysRegion { policyTable["holidays_region"] = holidaysRegion }
        if policy.minHours == policy.minHours.rounded() {
            policyTable["min_hours"] = Int(policy.minHours)
        } else {
            policyTable["min_hours"] = policy.minHours
        }
        let target = TOMLTable()
        target["kind"] = policy.target.kind.rawValue
        if policy.target.hundredths % 100 == 0 {
            target["value"] = policy.target.hundredths / 100
        } else {
            target["value"] = policy.target.value
        }
        target["reduce"] = policy.target.reduce.rawValue
        if policy.target.kind == .daysPerWeek { target["round"] = policy.target.round.rawValue }
        if policy.target.kind == .compliantWeeks { target["weeks"] = policy.target.weeks }
        if policy.target.kind == .bestWeeks {
            target["best"] = policy.target.best
            target["window"] = policy.target.window
        }
        policyTable["target"] = target
        let counts = TOMLTable()
        for status in [AttendanceStatus.travel, .sick, .vacation, .leave] {
            counts[status.rawValue] = policy.treatment(of: status).rawValue
        }
        policyTable["counts"] = counts
        root["policy"] = policyTable

        let holidays = TOMLArray()
        for (date, name) in listed.sorted(by: { $0.key < $1.key }) {
            holidays.append(TOMLTable(["date": date.description, "name": name] as [String: TOMLValueConvertible], inline: false))
        }
        if !holidays.isEmpty { root["holidays"] = holidays }
        return root
    }
}

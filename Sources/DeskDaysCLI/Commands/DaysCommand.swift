import Localization
import CommandSupport
import ArgumentParser
import DeskDaysCore
import DeskDaysReports
import DeskDaysExchange
import DeskDaysStore

/// `deskdays days`: each date with its resolved status, origin and sources.
struct DaysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "days", abstract: tr("List dates with their resolved status (default: the current period)."))

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp(tr("First date, YYYY-MM-DD (default: the period's start).")))
    var from: String?

    @Option(help: ArgumentHelp(tr("Last date, YYYY-MM-DD (default: the period's end).")))
    var to: String?

    @Flag(help: ArgumentHelp(tr("Print JSON (docs/cli.md).")))
    var json = false

    @Flag(help: ArgumentHelp(tr("Only the past workdays with no record (or short of min_hours): what to catch up.")))
    var missing = false

    func run() async throws {
        let session = try Session(global)
        var (days, presence) = try DaysCommand.resolvedDaysWithPresence(session, from: from, to: to)
        let policy = session.policy
        if missing {
            // The engine's own "unrecorded", the report's `missing`.
            let engine = PolicyEngine(policy: policy)
            days = days.filter { engine.classify($0.date, status: $0.status, today: session.today) == .unrecorded }
        }
        if json {
            // With sync, which devices' changes touched each date.
            var devices: [LocalDate: [String]]?
            if session.syncSettings != nil, let first = days.first?.date, let last = days.last?.date {
                devices = try session.readStore().deviceNames(in: DateSpan(first, last))
            }
            print(try Render.json(days.map { day in
                DayRow(day: day, presence: presence[day.date], policy: policy, devices: devices.map { $0[day.date] ?? [] })
            }))
            return
        }
        // Words and numbers in the user's language (LC_MESSAGES, LC_TIME, LC_NUMERIC); JSON above stays English.
        let locale = session.reportLocale
        // Columns as wide as the language's longest weekday and status words ("Mo", "lun.", "ثلاثاء").
        let weekdayWidth = Weekday.allCases.map { Localization.displayWidth(Words.weekdayShort($0, locale: locale)) }.max() ?? 3
        // A date without a status says why, as the calendar's legend does: a holiday, a past
        // workday nobody recorded, or one still to come (a weekend stays blank).
        let unmarked: [DayKind] = [.holiday, .unrecorded, .pending]
        let statusWidth = max(9, (AttendanceStatus.allCases.map(Words.status) + unmarked.map(\.label))
            .map(Localization.displayWidth).max() ?? 9)
        let today = session.today
        for day in days {
            let kind = DayKind.classify(day.date, status: nil, policy: policy, today: today)
            let status = day.status.map(Words.status) ?? (unmarked.contains(kind) ? kind.label : "")
            var detail = ""
            if let origin = day.origin {
                // "manual", not "manual: manual": the sources only when they say more than the origin.
                let sources = day.sources.map(Words.source).joined(separator: ", ")
                detail = day.sources == [Source(origin: origin)] ? Words.origin(origin) : tr("\(Words.origin(origin)): \(sources)")
            }
            if let seen = presence[day.date], seen.firstSeen == nil {
                // Only a departure (of a presence that began on an earlier day).
                detail += "  " + tr("left \(policy.clockTime(of: seen.lastSeen))")
            } else if let seen = presence[day.date], let firstSeen = seen.firstSeen, let hoursValue = seen.hours {
                // Time on site, when the date has an arrival.
                let first = policy.clockTime(of: firstSeen), last = policy.clockTime(of: seen.lastSeen)
                let hours = Words.decimal(hoursValue, locale: locale)
                detail += "  " + (seen.isShort(minHours: policy.minHours)
                    ? tr("\(first)–\(last) \(hours) h (short of \(Self.hoursText(policy.minHours, locale: locale)) h)")
                    : tr("\(first)–\(last) \(hours) h"))
            }
            let weekday = Words.weekdayShort(day.date.weekday, locale: locale)
            print("\(Localization.figure(day.date.description))  \(Words.padded(weekday, weekdayWidth))  \(Words.padded(status, statusWidth)) \(detail)"
                  .trimmingCharacters(in: .whitespaces))
        }
    }

    /// `4`, `4.5`: min_hours as written.
    static func hoursText(_ hours: Double, locale: ReportLocale? = nil) -> String {
        if hours == hours.rounded() { return locale == nil ? String(Int(hours)) : Localization.figures(String(Int(hours))) }
        return locale.map { Words.decimal(hours, locale: $0) } ?? String(hours)
    }

    /// A `days --json` row: the export's keys, then time on site
    /// (`first_seen`, `last_seen` as local `HH:MM`, `hours`): `first_seen`
    /// and `hours` null without an arrival, `last_seen` null without a sign; with sync, `devices`: the names of the devices whose
    /// changes touched the date.
    struct DayRow: Encodable {
        var day: ExchangeDay
        var presence: DayPresence?
        var policy: Policy
        var devices: [String]?

        enum Keys: String, CodingKey { case firstSeen = "first_seen", lastSeen = "last_seen", hours, devices }

        func encode(to encoder: Encoder) throws {
            try day.encode(to: encoder)
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(presence?.firstSeen.map { policy.clockTime(of: $0) }, forKey: .firstSeen)
            try container.encode(presence.map { policy.clockTime(of: $0.lastSeen) }, forKey: .lastSeen)
            try container.encode(presence?.hours, forKey: .hours)
            try container.encodeIfPresent(devices, forKey: .devices)
        }
    }

    /// The days of a range (defaults: the current period), resolved.
    static func resolvedDays(_ session: Session, from: String?, to: String?) throws -> [ExchangeDay] {
        try resolvedDaysWithPresence(session, from: from, to: to).days
    }

    /// The days of a range and their time on site.
    static func resolvedDaysWithPresence(_ session: Session, from: String?, to: String?) throws
        -> (days: [ExchangeDay], presence: [LocalDate: DayPresence]) {
        let period = session.policy.reportPeriod(.current, today: session.today)
        let first = try from.map { try Session.date($0, option: "--from") } ?? period.start
        let last = try to.map { try Session.date($0, option: "--to") } ?? period.end
        guard first <= last else { throw CLIError(tr("--from \(session.reportLocale.day(first)) is after --to \(session.reportLocale.day(last)); swap them.")) }
        guard first.days(to: last) <= 366 * 50 else { throw CLIError(tr("The range \(session.reportLocale.day(first)) to \(session.reportLocale.day(last)) is longer than 50 years; narrow it.")) }
        let span = DateSpan(first, last)
        let evidence = try session.evidence(span, store: try session.readStore())
        let byDate = Dictionary(grouping: evidence.records, by: \.date)
        let days = span.map { date in
            let day = evidence.resolved[date]
            // The note of the record that decided the date, never one it overruled.
            let note = day.flatMap { Resolver.decidingRecord($0, records: byDate[date] ?? []) }?.note
            return ExchangeDay(date: date, workday: session.policy.isWorkday(date), status: day?.status,
                               origin: day?.origin, sources: day?.sources ?? [], note: note)
        }
        return (days, evidence.presence)
    }
}

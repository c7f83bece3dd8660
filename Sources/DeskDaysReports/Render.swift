import Localization
import DeskDaysCore
import Foundation

/// Human and status-bar renderings of a report. Free in form (docs/cli.md), but
/// every figure comes from the report, never recomputed here.
public enum Render {
    /// One line for `status`: where the user stands and what is needed, in
    /// the user's language (a sentence per target kind; each counted part
    /// takes its own plural form).
    public static func statusLine(_ report: Report, locale: ReportLocale = .process) -> String {
        // A weekly rule says this week too ("This week: 1 of 3 office days.").
        guard let week = report.currentWeek else { return periodLine(report, locale: locale) }
        return Localization.sentences([periodLine(report, locale: locale), weekLine(office: week.office, required: week.required, locale: locale)])
    }

    /// "This week: 1 of 3 office days." (status, waybar, the tray's tooltip).
    public static func weekLine(office: Int, required: Int, locale: ReportLocale = .process) -> String {
        let n = locale.number
        return trn("This week: \(n(office)) of \(n(required)) office day.", "This week: \(n(office)) of \(n(required)) office days.", required)
    }

    /// Where the user stands in the period, and what is needed.
    public static func periodLine(_ report: Report, locale: ReportLocale = .process) -> String {
        let label = locale.periodLabel(report.period), standing = report.standingWords, n = locale.number
        if let starts = report.ruleStarts {
            return tr("\(label): before the rule, which runs from \(locale.day(starts)).")
        }
        switch report.target.kind {
        case .compliantWeeks:
            let met = report.weeksMet ?? 0, required = report.weeksRequired ?? 0, remaining = report.weeksRemaining ?? 0
            let weeks = trn("\(n(met)) of \(n(required)) compliant week", "\(n(met)) of \(n(required)) compliant weeks", required)
            let toGo = trn("\(n(remaining)) week to go", "\(n(remaining)) weeks to go", remaining)
            return tr("\(label): \(standing) — \(weeks), \(toGo).")
        case .bestWeeks:
            let best = report.target.best
            // Each count has its own plural form.
            let days = trn("\(n(report.office)) of \(n(report.required)) office day",
                           "\(n(report.office)) of \(n(report.required)) office days", report.required)
            let hold = trn("best \(n(best)) week holds \(days)", "best \(n(best)) weeks hold \(days)", best)
            guard report.remainingRequired > 0 else { return tr("\(label): \(standing) — \(hold).") }
            let more = trn("\(n(report.remainingRequired)) more needed", "\(n(report.remainingRequired)) more needed",
                           report.remainingRequired)
            return tr("\(label): \(standing) — \(hold), \(more).")
        default:
            let office = trn("\(n(report.office)) of \(n(report.required)) office day",
                             "\(n(report.office)) of \(n(report.required)) office days", report.required)
            if report.isFinished {
                guard report.remainingRequired > 0 else { return tr("\(label): \(standing) — \(office).") }
                let short = trn("\(n(report.remainingRequired)) short", "\(n(report.remainingRequired)) short",
                                report.remainingRequired)
                return tr("\(label): \(standing) — \(office), \(short).")
            }
            let needed = report.remainingRequired == 0
                ? tr("nothing more needed")
                : trn("\(n(report.remainingRequired)) more office day needed",
                      "\(n(report.remainingRequired)) more office days needed", report.remainingRequired)
            let left = trn("\(n(report.pending)) workday left", "\(n(report.pending)) workdays left", report.pending)
            return tr("\(label): \(standing) — \(office), \(needed), \(left).")
        }
    }

    /// `report`'s text: the period, its standing and every figure, one line each.
    /// `minHours`: the policy's `min_hours`, for the short days' line (shown when set).
    public static func text(_ report: Report, locale: ReportLocale = .process, minHours: Double = 0) -> String {
        let n = locale.number, day = locale.day
        let label = locale.periodLabel(report.period)
        var lines = [tr("\(label) (\(day(report.period.start)) to \(day(report.period.end))), today \(day(report.today))"),
                     tr("Status: \(report.standingWords)")]
        if let starts = report.ruleStarts {
            lines.append(tr("The rule runs from \(day(starts)); this period has no target."))
        }
        lines.append(tr("Target: \(report.target.words(value: locale.figure(report.target.value), over: report.period.kind))"))
        lines.append(tr("Workdays \(n(report.workdays)), excused \(n(report.excused)), eligible \(n(report.eligible))"))
        lines.append(tr("Office \(n(report.office)), remote \(n(report.remote)), unrecorded \(n(report.unrecorded)) (elapsed \(n(report.elapsed))), pending \(n(report.pending)), planned office \(n(report.plannedOffice))"))
        if let officeAll = report.officeAll {
            lines.append(tr("Office days in the whole window: \(n(officeAll))"))
        }
        if let short = report.shortDays, minHours > 0 {
            // Days whose check-ins fell short of min_hours: not office days (a manual record still can make one).
            lines.append(tr("Short days (under \(locale.figure(minHours)) h on site): \(n(short))"))
        }
        lines.append(tr("Required \(n(report.required)), by now \(n(report.requiredToDate)), \(report.neededWords(locale))"))
        if let compliance = report.complianceToDate {
            // The neutral locale keeps the figure as it always was ("58.8 %").
            let share = locale.isNeutral ? String(format: "%.1f %%", compliance * 100) : locale.percentage(compliance)
            lines.append(tr("Office share so far: \(share)"))
        }
        if let met = report.weeksMet, let required = report.weeksRequired, let remaining = report.weeksRemaining {
            lines.append(tr("Compliant weeks \(n(met)) of \(n(required)), \(n(remaining)) not over yet"))
        }
        if let weeks = report.weeks {
            lines.append(tr("Weeks:"))
            // A week not over yet is not "not met": it is still open.
            let metWord = tr("met"), notMetWord = tr("not met"), openWord = tr("not over yet")
            // Dates and counts in columns whatever their lengths ("5. Okt." beside "28. Sept.").
            let rows = weeks.map { week in
                (day(week.start), "\(n(week.office))/\(n(week.required))",
                 week.met ? metWord : week.start.adding(days: 6) < report.today ? notMetWord : openWord)
            }
            let dateWidth = rows.map { Localization.displayWidth($0.0) }.max() ?? 0
            let countWidth = rows.map { Localization.displayWidth($0.1) }.max() ?? 0
            func padded(_ text: String, _ width: Int) -> String {
                text + String(repeating: " ", count: max(0, width - Localization.displayWidth(text)))
            }
            for (date, count, verdict) in rows {
                lines.append("  \(padded(date, dateWidth))  \(padded(count, countWidth))  \(verdict)")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// What to catch up (docs/cli.md "Additions (fifth round)"): the period's
    /// past workdays with no status, at most three with the command that
    /// settles each, then how many more; empty when none.
    public static func missingLines(_ report: Report, locale: ReportLocale = .process) -> String {
        let missing = report.missing, n = locale.number
        guard !missing.isEmpty else { return "" }
        var lines = [trn("\(n(missing.count)) past workday has no record:", "\(n(missing.count)) past workdays have no record:", missing.count)]
        for date in missing.prefix(3) {
            // The date as the locale writes it; in the command, as the command takes it.
            lines.append("  " + tr("\(locale.day(date)): `deskdays checkin --date \(date)` (or --status remote)"))
        }
        if missing.count > 3 {
            let more = missing.count - 3
            lines.append("  " + trn("and \(n(more)) more (`deskdays days --missing`)", "and \(n(more)) more (`deskdays days --missing`)", more))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// What to catch up in one sentence (the tray's tooltip): how many past
    /// workdays of the period have no status, and the first three; "" when none.
    public static func missingSentence(_ report: Report, locale: ReportLocale = .process) -> String {
        let missing = report.missing, count = missing.count
        guard count > 0 else { return "" }
        let dates = locale.list(missing.prefix(3).map { locale.day($0) })
        return count <= 3
            ? trn("\(locale.number(count)) past workday has no record: \(dates).", "\(locale.number(count)) past workdays have no record: \(dates).", count)
            : tr("\(locale.number(count)) past workdays have no record, the first \(dates) (`deskdays days --missing`).")
    }

    /// `4`, `2.5`: a figure as the configuration writes it.
    public static func formatNumber(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    /// Waybar's custom-module JSON (`return-type: json`): the keys and the
    /// class are fixed; the tooltip is the status line, in the user's language.
    public static func waybar(_ report: Report, locale: ReportLocale = .process) -> String {
        let percentage = report.required == 0 ? 100 : min(100, report.office * 100 / report.required)
        let object: [String: Any] = [
            "text": Localization.figure("\(report.office)/\(report.required)"),
            "alt": report.status.rawValue,
            "tooltip": statusLine(report, locale: locale),
            "class": report.status.rawValue,
            "percentage": percentage,
        ]
        let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }

    /// i3blocks: full text, short text, colour.
    public static func i3blocks(_ report: Report, locale: ReportLocale = .process) -> String {
        let colour: String
        switch report.status {
        case .met, .onTrack: colour = "#7fbf7f"
        case .behind: colour = "#e5c07b"
        case .impossible: colour = "#e06c75"
        case .notStarted: colour = "#9da5b4"
        }
        return [tr("Office \(report.office)/\(report.required) \(report.standingWords)"),
                Localization.figure("\(report.office)/\(report.required)"), colour].joined(separator: "\n")
    }

    /// The same JSON on one line (keys sorted): for status bars and `--follow`.
    public static func jsonLine<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    public static func json<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}

extension Render {
    /// The plan's first line (`deskdays plan`, the window's Plan page): met,
    /// out of reach by `short` (office days, or weeks with `byWeeks`), or
    /// how many `new` office days make the period end met.
    public static func planSummary(period: String, met: Bool, reachable: Bool, short: Int, new count: Int, byWeeks: Bool) -> String {
        if met { return tr("\(period): the target is met; no new office day is needed.") }
        if !reachable {
            return byWeeks
                ? trn("\(period): out of reach; even with every usable day the period ends \(short) compliant week short.",
                      "\(period): out of reach; even with every usable day the period ends \(short) compliant weeks short.", short)
                : trn("\(period): out of reach; even with every usable day the period ends \(short) office day short.",
                      "\(period): out of reach; even with every usable day the period ends \(short) office days short.", short)
        }
        return trn("\(period): \(count) new office day makes the period end met.",
                   "\(period): \(count) new office days make the period end met.", count)
    }
}

/// One line about streaks for `report` and `status`.
public func streakLine(_ streaks: Streaks, locale: ReportLocale) -> String {
    let current = locale.number(streaks.current), longest = locale.number(streaks.longest)
    return trn("Streak: \(current) compliant week in a row (longest \(longest)).",
               "Streak: \(current) compliant weeks in a row (longest \(longest)).", streaks.current)
}

import Localization
import DeskDaysCore

/// The terminal month calendar of `deskdays calendar`: month grids whose
/// weeks start on `week_start`, each day marked by a symbol (and, when
/// colour is on, an ANSI colour), a legend, and the period's figures.
public struct TerminalCalendar: Sendable {
    public var data: ReportData
    public var locale: ReportLocale
    /// ANSI colours; the caller decides (a TTY, and no `NO_COLOR`).
    public var colour: Bool

    public init(data: ReportData, locale: ReportLocale, colour: Bool) {
        self.data = data
        self.locale = locale
        self.colour = colour
    }

    /// Width of one day cell: an opening mark, two digits, the symbol, a closing mark.
    static let cellWidth = 5

    /// The calendar for `months` months ending with the month of today.
    public func render(months: Int) -> String {
        render(from: data.today.firstOfMonth.addingMonths(-(max(months, 1) - 1)), months: months)
    }

    /// The calendar for `months` months from the month of `first`.
    public func render(from first: LocalDate, months: Int) -> String {
        let first = first.firstOfMonth
        let last = first.addingMonths(max(months, 1) - 1)
        var blocks: [String] = []
        var month = first
        while month <= last {
            blocks.append(renderMonth(month))
            month = month.addingMonths(1)
        }
        return (blocks + [legend(), figures()]).joined(separator: "\n\n") + "\n"
    }

    /// One month: a centred title, a weekday header, one line per week.
    public func renderMonth(_ first: LocalDate) -> String {
        let width = TerminalCalendar.cellWidth * 7
        var lines = [centre(locale.monthTitle(first), width: width)]
        let order = (0..<7).map { Weekday(rawValue: (data.policy.weekStart.rawValue - 1 + $0) % 7 + 1)! }
        // Right-aligned over the day's two digits; a three-letter header (`seg`) takes the opening mark's column too.
        lines.append(trimTrailing(order.map { pad(locale.weekdayHeader($0), 3, left: true) + "  " }.joined()))
        let daysInMonth = LocalDate.daysIn(month: first.month, year: first.year)
        var cells = Array(repeating: String(repeating: " ", count: TerminalCalendar.cellWidth),
                          count: order.firstIndex(of: first.weekday)!)
        for day in 0..<daysInMonth {
            cells.append(cell(first.adding(days: day)))
            if cells.count == 7 {
                lines.append(trimTrailing(cells.joined()))
                cells = []
            }
        }
        if !cells.isEmpty { lines.append(trimTrailing(cells.joined())) }
        return lines.joined(separator: "\n")
    }

    func cell(_ date: LocalDate) -> String {
        let kind = data.kind(date)
        let isToday = date == data.today
        let text = (isToday ? "[" : " ") + pad(locale.number(date.day), 2, left: true) + String(kind.symbol(locale, terminal: true))
            + (isToday ? "]" : " ")
        guard colour else { return text }
        return TerminalCalendar.ansi(kind) + (isToday ? "\u{1B}[1;4m" : "") + text + "\u{1B}[0m"
    }

    /// Every symbol with its meaning; coloured like the grid when colour is on.
    public func legend() -> String {
        var items = DayKind.legendOrder.map { kind -> String in
            let mark = colour ? TerminalCalendar.ansi(kind) + String(kind.symbol(locale, terminal: true)) + "\u{1B}[0m" : String(kind.symbol(locale, terminal: true))
            return "\(mark) \(kind.label)"
        }
        items.append("[ ] " + tr("today"))
        return items.joined(separator: "  ")
    }

    /// Whether the calendar is coloured: only on a terminal, and never when
    /// `NO_COLOR` is set to anything but nothing (no-color.org). Symbols mark
    /// every day either way, so nothing is told by colour alone.
    public static func wantsColour(environment: [String: String], outputIsTerminal: Bool) -> Bool {
        outputIsTerminal && (environment["NO_COLOR"] ?? "").isEmpty
    }

    /// The period's figures in sentences, with locale dates and numbers, in the user's language.
    public func figures() -> String {
        let report = data.report
        let n = locale.number
        let label = locale.periodLabel(report.period)
        let start = locale.day(report.period.start), end = locale.day(report.period.end), today = locale.day(report.today)
        var lines = [tr("\(label): \(start) – \(end), today \(today) — \(report.standingWords)")]
        switch report.target.kind {
        case .compliantWeeks:
            lines.append(tr("Compliant weeks \(n(report.weeksMet ?? 0)) of \(n(report.weeksRequired ?? 0)), \(n(report.weeksRemaining ?? 0)) not over yet"))
        case .bestWeeks:
            // Each count has its own plural form (Arabic's "days" after 78 is not the one after 3).
            let days = trn("\(n(report.office)) of \(n(report.required)) office day",
                           "\(n(report.office)) of \(n(report.required)) office days", report.required)
            lines.append(trn("Best \(n(report.target.best)) week: \(days)", "Best \(n(report.target.best)) weeks: \(days)",
                             report.target.best))
        default:
            break
        }
        let needed = n(report.remainingRequired)
        let left = trn("\(n(report.pending)) workday left", "\(n(report.pending)) workdays left", report.pending)
        lines.append(tr("Office \(n(report.office)) of \(n(report.required)) required (\(n(report.requiredToDate)) by now), \(needed) still needed, \(left)"))
        var detail = trn("Remote \(n(report.remote)), unrecorded \(n(report.unrecorded)), excused \(n(report.excused)), eligible \(n(report.eligible)) of \(n(report.workdays)) workday",
                         "Remote \(n(report.remote)), unrecorded \(n(report.unrecorded)), excused \(n(report.excused)), eligible \(n(report.eligible)) of \(n(report.workdays)) workdays",
                         report.workdays)
        if let share = report.complianceToDate { detail += tr("; office share \(locale.percentage(share))") }
        lines.append(detail)
        if let short = report.shortDays {
            // min_hours is set: the days whose time on site fell short.
            lines.append(tr("Short days (under \(locale.figure(data.policy.minHours)) h on site): \(n(short))"))
        }
        if let streaks = data.streaks {
            let current = n(streaks.current), longest = n(streaks.longest)
            lines.append(trn("Streak: \(current) compliant week in a row (longest \(longest))",
                             "Streak: \(current) compliant weeks in a row (longest \(longest))", streaks.current))
        }
        return lines.joined(separator: "\n")
    }

    // MARK: - Helpers

    /// `4`, `4.5`: hours as the configuration writes them.
    static func hours(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    /// Foreground and background per kind, from the 16 basic colours every terminal has.
    static func ansi(_ kind: DayKind) -> String {
        switch kind {
        case .office: return "\u{1B}[30;42m"
        case .remote: return "\u{1B}[97;44m"
        case .excused: return "\u{1B}[30;45m"
        case .unrecorded: return "\u{1B}[97;41m"
        case .planned: return "\u{1B}[32m"
        case .pending: return "\u{1B}[39m"
        case .holiday: return "\u{1B}[30;46m"
        case .weekend: return "\u{1B}[2m"
        }
    }

    func pad(_ text: String, _ width: Int, left: Bool) -> String {
        // Columns, not characters: a Japanese weekday takes two.
        let fill = String(repeating: " ", count: max(0, width - Localization.displayWidth(text)))
        return left ? fill + text : text + fill
    }

    func centre(_ text: String, width: Int) -> String {
        let left = max(0, (width - Localization.displayWidth(text)) / 2)
        return String(repeating: " ", count: left) + text
    }

    /// Drops trailing blanks, so golden files have no invisible tails (a
    /// coloured line ends in an escape code and keeps its cells whole).
    func trimTrailing(_ line: String) -> String {
        var text = line
        while text.last == " " { text.removeLast() }
        return text
    }
}

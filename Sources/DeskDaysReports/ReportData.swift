import Localization
import DeskDaysCore

/// Everything a rendering needs: the policy, the period's report, each
/// date's resolved day, and the streaks. Renderers only read it.
public struct ReportData: Sendable {
    public var policy: Policy
    public var report: Report
    /// Resolved days by date; a date missing here has no record.
    public var days: [LocalDate: ResolvedDay]
    public var streaks: Streaks?
    /// Office days, compliant weeks in a row and periods met, with their levels.
    public var milestones: Milestones?
    /// Time on site of the dates shown (docs/policy.md "Time on site").
    public var presence: [LocalDate: DayPresence]
    /// The recorded plans' standing, when the period holds office plans (`status`).
    public var plan: PlanStanding?

    public init(policy: Policy, report: Report, days: [LocalDate: ResolvedDay], streaks: Streaks? = nil,
                presence: [LocalDate: DayPresence] = [:]) {
        self.policy = policy
        self.report = report
        self.days = days
        self.streaks = streaks
        self.presence = presence
    }

    /// The first date after `today` that holds an office plan (a manual plan
    /// or a calendar office event): the tray and the weekly summary name it.
    public func nextPlannedOffice(after today: LocalDate) -> LocalDate? {
        days.values.lazy.filter { $0.date > today && $0.status == .office }.map(\.date).min()
    }

    /// "Next planned office day: Thu 10 Dec." (nil: none planned).
    public func nextPlanLine(after today: LocalDate, locale: ReportLocale) -> String? {
        nextPlannedOffice(after: today).map { tr("Next planned office day: \(locale.day($0)).") }
    }

    /// "08:52–17:40, 8.8 h" for a date with time on site, shown beside a
    /// day only when `min_hours` is set (so that nothing else changes).
    public func hoursText(_ date: LocalDate) -> String? {
        guard policy.minHours > 0, let day = presence[date], let firstSeen = day.firstSeen, let hours = day.hours
        else { return nil }
        let first = policy.clockTime(of: firstSeen), last = policy.clockTime(of: day.lastSeen)
        return day.isShort(minHours: policy.minHours) ? tr("\(first)–\(last), \(hours) h (short)")
            : tr("\(first)–\(last), \(hours) h")
    }

    public var today: LocalDate { report.today }
    public var period: Period { report.period }

    public func status(_ date: LocalDate) -> AttendanceStatus? { days[date]?.status }

    public func kind(_ date: LocalDate) -> DayKind {
        DayKind.classify(date, status: status(date), policy: policy, today: today,
                         plan: days[date].map { $0.origin == .calendar && $0.status == .office } ?? false)
    }

    /// The weeks to chart: the period's weeks as streaks judge them (the
    /// report's own table for week-based rules).
    public func chartWeeks() -> [WeekOutcome] {
        let calculator = StreakCalculator(policy: policy, today: today)
        if policy.target.kind == .bestWeeks, let weeks = report.weeks {
            return weeks.map { week in
                let whole = calculator.week(week.start, statusOf: status)
                let verdict: WeekOutcome.Verdict = week.met
                    ? (whole.eligible == 0 && week.office == 0 ? .excused : .met)
                    : (week.start.adding(days: 6) < today ? .missed : .open)
                return WeekOutcome(start: week.start, office: week.office, required: week.required,
                                   eligible: whole.eligible, verdict: verdict)
            }
        }
        return calculator.rows(in: report.period, whole: true, statusOf: status)
    }
}

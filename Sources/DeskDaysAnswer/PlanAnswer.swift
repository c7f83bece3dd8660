import Localization
import DeskDaysCore
import DeskDaysReports
import DeskDaysStore
import Foundation

/// `plan --json`: docs/cli.md "Additions (fifth round)".
public struct PlanJSON: Encodable, Sendable {
    public var plan: Plan

    enum Keys: String, CodingKey {
        case period, status, days, new, reachable, short
        case remainingRequired = "remaining_required", shortWeeks = "short_weeks"
    }

    enum PeriodKeys: String, CodingKey { case start, end }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        var period = c.nestedContainer(keyedBy: PeriodKeys.self, forKey: .period)
        try period.encode(plan.report.period.start.description, forKey: .start)
        try period.encode(plan.report.period.end.description, forKey: .end)
        try c.encode(plan.report.status.rawValue, forKey: .status)
        try c.encode(plan.report.remainingRequired, forKey: .remainingRequired)
        try c.encode(plan.days.map(\.description), forKey: .days)
        try c.encode(plan.new.map(\.description), forKey: .new)
        try c.encode(plan.reachable, forKey: .reachable)
        try c.encode(plan.short, forKey: plan.byWeeks ? .shortWeeks : .short)
    }
}

extension Answers {
    /// Whether today may still get a plan: before the end-of-day fallback
    /// time (always, with the fallback off), as the planner's open days ask.
    public func todayOpen(now: Date, today: LocalDate) -> Bool {
        guard let until = fallbackTime else { return true }
        return now < policy.instant(within: today, hour: until.hour, minute: until.minute)
    }

    /// The plan for the current period (docs/policy.md "Planning"), from one read of its dates.
    public func plan(_ options: PlanOptions, store: AttendanceStore, today: LocalDate, now: Date? = nil) throws -> Plan {
        let instant = now ?? policy.instant(of: today)
        let resolved = try resolved(engine.dataSpan(.current, today: today), store: store, today: today, now: instant)
        return engine.plan(today: today, todayOpen: todayOpen(now: instant, today: today), options: options,
                           plans: PolicyEngine.plans(resolved)) { resolved[$0]?.status }
    }

    /// Each date of `span` resolved from the store and the calendar (with time on site when it decides).
    func resolved(_ span: DateSpan, store: AttendanceStore, today: LocalDate, now: Date) throws -> [LocalDate: ResolvedDay] {
        let checkIns = try store.checkIns(in: span)
        let presence = policy.minHours > 0 ? try self.presence(store: store, span: span, checkIns: checkIns, now: now) : [:]
        return Resolver.resolve(span, records: try records(in: span, store: store, today: today), checkIns: checkIns,
                                short: engine.shortDates(presence))
    }

    /// `deskdays plan [--json]`'s bytes, newline included.
    public func planOutput(_ options: PlanOptions, json: Bool, store: AttendanceStore, today: LocalDate,
                           now: Date? = nil) throws -> String {
        let plan = try self.plan(options, store: store, today: today, now: now)
        return json ? try planJSON(plan) : planText(plan, options: options)
    }

    /// The line `plan --json` prints.
    public func planJSON(_ plan: Plan) throws -> String {
        try Render.json(PlanJSON(plan: plan)) + "\n"
    }

    /// One line for the plan, one per week with plan days and what shaped them, then the total.
    public func planText(_ plan: Plan, options: PlanOptions) -> String {
        let period = locale.periodLabel(plan.report.period)
        var lines: [String] = []
        let count = plan.new.count
        lines.append(Render.planSummary(period: period, met: plan.report.status == .met, reachable: plan.reachable, short: plan.short,
                                        new: count, byWeeks: plan.byWeeks))
        let existing = Set(plan.existing)
        let weeks = Dictionary(grouping: plan.days) { policy.weekStart(of: $0) }
        for start in weeks.keys.sorted() {
            let days = weeks[start]!
            let week = DateSpan(start, start.adding(days: 6))
            let possible = days.count + plan.usable.filter { week.contains($0) && !days.contains($0) }.count
            let names = locale.list(days.map { existing.contains($0) ? tr("\(locale.day($0)) (planned)") : locale.day($0) })
            let taken = days.count
            var why = [tr("\(taken) of \(possible) this week")]
            for date in week where date >= plan.report.today && plan.scope.contains(date) {
                let weekday = locale.weekdayName(date.weekday)
                if policy.holidays[date] != nil, policy.workdays.contains(date.weekday) {
                    why.append(tr("\(weekday) is a holiday"))
                } else if plan.avoided.contains(date) {
                    why.append(tr("\(weekday) is avoided"))
                }
            }
            let reasons = why.joined(separator: "; "), first = locale.day(start)
            lines.append(tr("Week of \(first): \(names) (\(reasons))."))
        }
        if !plan.days.isEmpty {
            let total = plan.days.count
            lines.append(trn("Total: \(total) office day (\(count) new).", "Total: \(total) office days (\(count) new).", total))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

import DeskDaysCore
import DeskDaysReports
import DeskDaysStore
import Foundation

extension Session {
    /// What the calendar, the charts and the HTML page draw: the report for
    /// `selector`, each date's resolved day, and the streaks, from one read
    /// of the store.
    ///
    /// Streaks look at the whole history, so the read spans from the first
    /// stored date to the end of the week of today (and `covering`, the
    /// dates a view shows beyond the period).
    func reportData(_ selector: PeriodSelector = .current, covering: DateSpan? = nil) throws -> ReportData {
        let store = try readStore()
        let needed = engine.dataSpan(selector, today: today)
        let stored = try store.dateRange()
        let first = [needed.start, covering?.start, stored?.start].compactMap { $0 }.min()!
        let last = [needed.end, covering?.end, policy.week(containing: today).end].compactMap { $0 }.max()!
        // The dates a view shows are resolved in full (with their sources);
        // the rest of the history only needs a status for the streaks.
        let detail = DateSpan(min(needed.start, covering?.start ?? needed.start), max(needed.end, covering?.end ?? needed.end))
        let history = DateSpan(first, last)
        let days = Resolver.resolve(detail, records: try store.records(in: detail), checkIns: try store.checkIns(in: detail))
        let past = DayStatuses(history, orderedRecords: try store.statusHistory(in: history),
                               checkInDates: try store.checkInDates(in: history))
        let status: (LocalDate) -> AttendanceStatus? = { days[$0]?.status ?? past[$0] }
        let report = engine.report(selector, today: today, statusOf: status)
        let calculator = StreakCalculator(policy: policy, today: today)
        let streaks = StreakCalculator.streaks(calculator.weeks(from: stored?.start ?? today, statusOf: status))
        return ReportData(policy: policy, report: report, days: days, streaks: streaks)
    }

    /// Human output follows the user's locale (`LC_ALL`, `LC_TIME`, `LC_NUMERIC`, `LANG`).
    var reportLocale: ReportLocale { ReportLocale(environment: processEnvironment) }
}

/// One line about streaks for `report` and `status`.
func streakLine(_ streaks: Streaks, locale: ReportLocale) -> String {
    "Streak: \(locale.number(streaks.current)) compliant week\(streaks.current == 1 ? "" : "s") in a row "
        + "(longest \(locale.number(streaks.longest)))."
}

/// Writes a file the program creates: mode 0600 (CLI.md), replacing an old one.
func writeUserFile(_ path: String, contents: Data) throws {
    let url = URL(fileURLWithPath: path)
    do {
        try contents.write(to: url, options: .atomic)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
    } catch {
        throw CLIError("Cannot write \(path) (\((error as NSError).localizedDescription)); choose a path in a folder you can write to.")
    }
}

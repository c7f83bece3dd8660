import Files
import Localization
import CommandSupport
import DeskDaysAnswer
import DeskDaysCore
import DeskDaysReports
import DeskDaysStore
import Foundation

extension Session {
    /// What `status` and `report` print, and what the views draw (`Answers`).
    var answers: Answers {
        Answers(policy: configuration.policy, locale: reportLocale, calendar: calendar,
                fallbackTime: configuration.checkin.fallbackTime)
    }

    /// The report for `selector`, each date's resolved day and the streaks (`Answers.reportData`).
    func reportData(_ selector: PeriodSelector = .current, covering: DateSpan? = nil) throws -> ReportData {
        try answers.reportData(selector, covering: covering, store: try readStore(), today: today, now: now.date)
    }

    /// Everything stored about the dates of `span`, resolved with time on
    /// site (docs/policy.md): what `days`, `explain`, `reconcile` and
    /// `evidence` show.
    func evidence(_ span: DateSpan, store: AttendanceStore) throws -> SpanEvidence {
        let records = try store.records(in: span) + calendar.records(in: span, today: today)
        let checkIns = try store.checkIns(in: span)
        let presence = try answers.presence(store: store, span: span, checkIns: checkIns, now: now.date)
        let resolved = Resolver.resolve(span, records: records, checkIns: checkIns,
                                        short: engine.shortDates(presence), today: today)
        return SpanEvidence(records: records, checkIns: checkIns, presence: presence, resolved: resolved)
    }

    /// Human output follows the user's locale (`LC_ALL`, `LC_TIME`, `LC_NUMERIC`, `LANG`).
    var reportLocale: ReportLocale { ReportLocale(environment: processEnvironment) }
}

/// Writes a file the program creates: mode 0600 (docs/cli.md), replacing an
/// old one atomically (a new file beside it, then renamed over it). A
/// failure is one sentence with the system's reason.
func writeUserFile(_ path: String, contents: Data) throws {
    do {
        try AtomicFile.replace(path, with: contents, durable: true)
    } catch {
        throw CLIError(tr("Cannot write \(path) (\(AtomicFile.reason(error))); choose a path in a folder you can write to."))
    }
}

/// The stored facts of a span of dates and how they resolve.
struct SpanEvidence {
    var records: [DayRecord]
    var checkIns: [AutomaticCheckIn]
    var presence: [LocalDate: DayPresence]
    var resolved: [LocalDate: ResolvedDay]
}

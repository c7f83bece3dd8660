import DeskDaysAnswer
import DeskDaysCore
import DeskDaysReports
import DeskDaysStore
import Foundation

extension Session {
    /// What `status` and `report` print, and what the views draw (`Answers`).
    var answers: Answers { Answers(policy: configuration.policy, locale: reportLocale, calendar: calendar) }

    /// The report for `selector`, each date's resolved day and the streaks (`Answers.reportData`).
    func reportData(_ selector: PeriodSelector = .current, covering: DateSpan? = nil) throws -> ReportData {
        try answers.reportData(selector, covering: covering, store: try readStore(), today: today, now: now)
    }

    /// Everything stored about the dates of `span`, resolved with time on
    /// site (docs/policy.md): what `days`, `explain`, `reconcile` and
    /// `evidence` show.
    func evidence(_ span: DateSpan, store: AttendanceStore) throws -> SpanEvidence {
        let records = try store.records(in: span) + calendar.records(in: span, today: today)
        let checkIns = try store.checkIns(in: span)
        let presence = try answers.presence(store: store, span: span, checkIns: checkIns, now: now)
        let resolved = Resolver.resolve(span, records: records, checkIns: checkIns,
                                        short: engine.shortDates(presence))
        return SpanEvidence(records: records, checkIns: checkIns, presence: presence, resolved: resolved)
    }

    /// Human output follows the user's locale (`LC_ALL`, `LC_TIME`, `LC_NUMERIC`, `LANG`).
    var reportLocale: ReportLocale { ReportLocale(environment: processEnvironment) }
}

/// Writes a file the program creates: mode 0600 (docs/cli.md), replacing an
/// old one atomically (a new file beside it, then renamed over it). A
/// failure is one sentence with the system's reason.
func writeUserFile(_ path: String, contents: Data) throws {
    func failure(_ code: Int32) -> CLIError {
        CLIError(tr("Cannot write \(path) (\(String(cString: strerror(code)))); choose a path in a folder you can write to."))
    }
    let slash = path.lastIndex(of: "/")
    let folder = slash.map { String(path[..<$0]) }.map { $0.isEmpty ? "/" : $0 } ?? "."
    let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
    let temporary = "\(folder)/.\(name).\(getpid()).tmp"
    let fd = open(temporary, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw failure(errno) }
    let written = contents.withUnsafeBytes { buffer -> Bool in
        var offset = 0
        while offset < buffer.count {
            let count = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            offset += count
        }
        return true
    }
    let code = errno
    guard written, close(fd) == 0 else {
        if written == false { close(fd) }
        unlink(temporary)
        throw failure(written ? errno : code)
    }
    guard rename(temporary, path) == 0 else {
        let code = errno
        unlink(temporary)
        throw failure(code)
    }
}

/// The stored facts of a span of dates and how they resolve.
struct SpanEvidence {
    var records: [DayRecord]
    var checkIns: [AutomaticCheckIn]
    var presence: [LocalDate: DayPresence]
    var resolved: [LocalDate: ResolvedDay]
}

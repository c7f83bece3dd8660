import Localization
import CommandSupport
import ArgumentParser
import DeskDaysCore
import DeskDaysExchange
import DeskDaysReports
import Foundation

/// `deskdays reconcile FILE`: the employer's export beside DeskDays' own
/// evidence, day by day (docs/cli.md).
struct ReconcileCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reconcile",
        abstract: tr("Compare the employer's attendance export (CSV) with DeskDays, day by day."),
        discussion: tr("""
        The CSV needs a header row; the date column is found by its name (Date, Day, Swipe time, …) \
        or named with --date-column. Each row puts the person in on its date (one row per swipe or \
        per day). Every workday of the range up to today is compared (and any other day either side \
        has in the office); each disagreement is printed with DeskDays' evidence.
        """))

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp(tr("The employer's export, CSV with a header row.")))
    var file: String

    @Option(name: .customLong("date-column"), help: ArgumentHelp(tr("The header of the column holding the date (default: found by name).")))
    var dateColumn: String?

    @Option(help: ArgumentHelp(tr("How the export writes dates: YYYY-MM-DD, DD.MM.YYYY, DD/MM/YYYY, MM/DD/YYYY or D.M.YYYY.")))
    var dateFormat: DateFormat?

    @Option(help: ArgumentHelp(tr("A time clock's column of arrival times (HH:MM, or a date and time).")))
    var inColumn: String?

    @Option(help: ArgumentHelp(tr("A time clock's column of departure times (HH:MM, or a date and time).")))
    var outColumn: String?

    @Option(help: ArgumentHelp(tr("First date, YYYY-MM-DD (default: the current period's start).")))
    var from: String?

    @Option(help: ArgumentHelp(tr("Last date, YYYY-MM-DD (default: the current period's end; never past today).")))
    var to: String?

    @Flag(help: ArgumentHelp(tr("Print JSON (docs/cli.md).")))
    var json = false

    /// One date as both sides see it.
    struct Row: Encodable {
        struct Ours: Encodable {
            var status: AttendanceStatus?
            var origin: Origin?
            var sources: [Source]
            var firstSeen: TimeOfDay?
            var lastSeen: TimeOfDay?
            var note: String?

            enum CodingKeys: String, CodingKey {
                case status, origin, sources, firstSeen = "first_seen", lastSeen = "last_seen", note
            }

            func encode(to encoder: Encoder) throws {
                var c = encoder.container(keyedBy: CodingKeys.self)
                try c.encode(status, forKey: .status)
                try c.encode(origin, forKey: .origin)
                try c.encode(sources, forKey: .sources)
                try c.encode(firstSeen, forKey: .firstSeen)
                try c.encode(lastSeen, forKey: .lastSeen)
                try c.encode(note, forKey: .note)
            }
        }

        var date: LocalDate
        var employer: String
        var ours: Ours
        /// Not encoded: what the text output needs.
        var agree: Bool
        var hours: Double?

        enum CodingKeys: String, CodingKey { case date, employer, ours }
    }

    struct Summary: Encodable {
        var agree = 0
        var employerOnly = 0
        var oursOnly = 0

        enum CodingKeys: String, CodingKey { case agree, employerOnly = "employer_only", oursOnly = "ours_only" }
    }

    struct Output: Encodable {
        var summary: Summary
        var days: [Row]
    }

    func run() async throws {
        let session = try Session(global)
        guard let data = FileManager.default.contents(atPath: file) else {
            throw CLIError(tr("Cannot read \(file); check the path and that you may read it."))
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw CLIError(tr("\(file) is not UTF-8 text; save the export as UTF-8 CSV."))
        }
        let export: EmployerExport
        do {
            export = try EmployerExport.parse(text, file: file, dateColumn: dateColumn, dateFormat: dateFormat,
                                          inColumn: inColumn, outColumn: outColumn, policy: session.policy)
        } catch {
            // One sentence naming the line; nothing is written by reconcile, so no "nothing was imported".
            throw CLIError(error.description + (error.description.hasSuffix(".") ? "" : "."))
        }
        let (rows, summary, span) = try Self.compare(export, session: session, from: from, to: to)
        let disagreements = rows.filter { !$0.agree }
        if json {
            print(try Render.json(Output(summary: summary, days: disagreements)))
            return
        }
        // One sentence; the count of agreeing days decides its plural form.
        let (start, end, column) = (session.reportLocale.day(span.start), session.reportLocale.day(span.end), export.column)
        let (agree, employerOnly, oursOnly) = (summary.agree, summary.employerOnly, summary.oursOnly)
        print(trn("\(start) to \(end), the employer's \"\(column)\" column against DeskDays: \(agree) day agrees, \(employerOnly) only the employer has in, \(oursOnly) only DeskDays has in.",
                  "\(start) to \(end), the employer's \"\(column)\" column against DeskDays: \(agree) days agree, \(employerOnly) only the employer has in, \(oursOnly) only DeskDays has in.",
                  agree))
        let outside = export.rows.keys.filter { !span.contains($0) }
        if let first = outside.min().map(session.reportLocale.day), let last = outside.max().map(session.reportLocale.day) {
            // The file covers more than the range: say so, so a wrong range is noticed.
            let count = outside.count
            print(trn("The file also has \(count) date outside the range (\(first) to \(last)); compare them with --from and --to.",
                      "The file also has \(count) dates outside the range (\(first) to \(last)); compare them with --from and --to.", count))
        }
        let locale = session.reportLocale
        for row in disagreements {
            print(Self.line(row, locale: locale))
        }
    }

    /// "2026-03-14 Sat  employer: absent  DeskDays: office (automatic: nfc, wifi) on site 08:52–17:40 (8.8 h)".
    static func line(_ row: Row, locale: ReportLocale = ReportLocale(identifier: "en_US_POSIX")) -> String {
        // "in" and "absent" share one width, so the DeskDays column lines up.
        let employer = row.employer == "in" ? tr("in") : tr("absent")
        let width = max(tr("in").count, tr("absent").count)
        let weekday = locale.weekdayName(row.date.weekday)
        var ours: String
        if let status = row.ours.status, let origin = row.ours.origin {
            // The sources beyond the deciding record's own ("office (manual)", "office (automatic: nfc, wifi)").
            let others = row.ours.sources.filter { $0 != Source(origin: origin) }.map(Words.source)
            let (word, from) = (Words.status(status), Words.origin(origin))
            ours = others.isEmpty ? tr("\(word) (\(from))") : tr("\(word) (\(from): \(others.joined(separator: ", ")))")
        } else {
            let sources = row.ours.sources.map(Words.source).joined(separator: ", ")
            ours = sources.isEmpty ? tr("no record") : tr("no record (\(sources))")
        }
        if let first = row.ours.firstSeen, let last = row.ours.lastSeen {
            ours += " " + (row.hours.map { tr("on site \(first)–\(last) (\(Words.decimal($0, locale: locale)) h)") }
                           ?? tr("on site \(first)–\(last)"))
        }
        if let note = row.ours.note { ours += " — \"\(note)\"" }
        return tr("\(row.date) \(weekday)  employer: \(Words.padded(employer, width))  DeskDays: \(ours)")
    }

    /// Both sides for each date compared: the workdays of the range up to
    /// today, and any other date one side has in. "In" for DeskDays is a
    /// resolved `office` status (travel is not on site).
    static func compare(_ export: EmployerExport, session: Session, from: String?, to: String?) throws
        -> (rows: [Row], summary: Summary, span: DateSpan) {
        let policy = session.policy
        let period = policy.reportPeriod(.current, today: session.today)
        let first = try from.map { try Session.date($0, option: "--from") } ?? period.start
        var last = try to.map { try Session.date($0, option: "--to") } ?? period.end
        last = min(last, session.today)
        guard first <= last else {
            throw CLIError(tr("--from \(session.reportLocale.day(first)) is after \(session.reportLocale.day(last)) (the last date compared: --to, never past today); fix the range."))
        }
        guard first.days(to: last) <= 366 * 50 else { throw CLIError(tr("The range \(session.reportLocale.day(first)) to \(session.reportLocale.day(last)) is longer than 50 years; narrow it.")) }
        let span = DateSpan(first, last)
        let evidence = try session.evidence(span, store: try session.readStore())
        var notes: [LocalDate: String] = [:]
        for record in evidence.records { if let note = record.note { notes[record.date] = note } }
        var rows: [Row] = []
        var summary = Summary()
        for date in span {
            let resolved = evidence.resolved[date]
            let employerIn = (export.rows[date] ?? 0) > 0
            let oursIn = resolved?.status == .office
            guard policy.isWorkday(date) || employerIn || oursIn else { continue }
            let presence = evidence.presence[date]
            let ours = Row.Ours(status: resolved?.status, origin: resolved?.origin, sources: resolved?.sources ?? [],
                                firstSeen: presence?.firstSeen.map { policy.clockTime(of: $0) },
                                lastSeen: presence.map { policy.clockTime(of: $0.lastSeen) }, note: notes[date])
            let agree = employerIn == oursIn
            if agree { summary.agree += 1 } else if employerIn { summary.employerOnly += 1 } else { summary.oursOnly += 1 }
            rows.append(Row(date: date, employer: employerIn ? "in" : "absent", ours: ours, agree: agree, hours: presence?.hours))
        }
        return (rows, summary, span)
    }
}

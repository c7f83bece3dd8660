import Localization
import CommandSupport
import ArgumentParser
import DeskDaysCore
import DeskDaysExchange
import Foundation

extension DateFormat: ExpressibleByArgument {
    /// A shape, optionally with the time a time clock writes after it (`"DD.MM.YYYY HH:mm"`).
    public init?(argument: String) { self.init(named: argument) }
}

/// `deskdays import FILE`: backfilled history as imported records.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: tr("Import history from a DeskDays CSV/JSON export or an iCalendar file of all-day events."))

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp(tr("The file to import.")))
    var file: String

    @Option(help: ArgumentHelp(tr("The CSV column holding the date (default: date).")))
    var dateColumn: String?

    @Option(help: ArgumentHelp(tr("The CSV column holding the status (default: status).")))
    var statusColumn: String?

    @Option(help: ArgumentHelp(tr("How the CSV writes dates: YYYY-MM-DD, DD.MM.YYYY, DD/MM/YYYY, MM/DD/YYYY or D.M.YYYY.")))
    var dateFormat: DateFormat?

    @Option(help: ArgumentHelp(tr("A time clock's column of arrival times (HH:MM, or a date and time).")))
    var inColumn: String?

    @Option(help: ArgumentHelp(tr("A time clock's column of departure times (HH:MM, or a date and time).")))
    var outColumn: String?

    @Option(help: ArgumentHelp(tr("The status of every row, for a CSV without a status column (a list of office dates).")),
            transform: AttendanceStatus.argument)
    var status: AttendanceStatus?

    func run() async throws {
        let session = try Session(global)
        // The file's bytes are let go once they are text (a time clock's file may be large).
        guard let text = try { () throws -> String? in
            guard let data = FileManager.default.contents(atPath: file) else {
                throw CLIError(tr("Cannot read \(file); check the path and that you may read it."))
            }
            return Exchange.text(of: data)
        }() else {
            throw CLIError(tr("\(file) is not UTF-8 text; save it as UTF-8 CSV, JSON or iCalendar."))
        }
        let horizon = session.today.adding(days: 366 * 5)
        let imported = try Exchange.parseImport(text, file: file, horizon: horizon, options: ImportOptions(
            dateColumn: dateColumn, statusColumn: statusColumn, dateFormat: dateFormat, status: status,
            inColumn: inColumn, outColumn: outColumn, policy: session.policy))
        // A time clock's rows are checked whole before anything is written: none lies ahead of now.
        for sign in imported.signs {
            let date = sign.date
            guard date.isSupported else {
                throw CLIError("\(file):\(sign.line): " + tr("a check-in on \(date) is \(LocalDate.unsupportedPhrase)"))
            }
            guard sign.at.timeIntervalSince(session.now.date) <= Validation.furthestAhead else {
                throw CLIError("\(file):\(sign.line): " + tr("a check-in stamped \(date) is more than a day after now; check the time (and the clock)"))
            }
        }
        // Rows with an unknown status are named, not guessed at (docs/cli.md, "Status words").
        for row in imported.skipped { printError("deskdays: \(row)") }
        if imported.skippedCount > imported.skipped.count {
            let more = imported.skippedCount - imported.skipped.count
            printError("deskdays: " + trn("… and \(more) more row with an unknown status, skipped.",
                                          "… and \(more) more rows with an unknown status, skipped.", more))
        }
        if !imported.skipped.isEmpty {
            let count = imported.skippedCount
            printError("deskdays: " + trn("\(count) row of \(file) was skipped; nothing else of the file was left out.",
                                          "\(count) rows of \(file) were skipped; nothing else of the file was left out.", count))
        }
        if !imported.entries.isEmpty {
            // A DeskDays JSON export: each date's entries written as they were.
            let pipeline = try await session.pipeline()
            for item in imported.entries {
                let entry = item.entry
                switch entry.kind {
                case .record:
                    guard let status = entry.status else { continue }
                    switch entry.origin {
                    case .manual?: try await pipeline.recordManual(dates: [item.date], status: status, note: entry.note, today: session.today)
                    case .fallback?: _ = try await pipeline.writeFallback(date: item.date, status: status)
                    default: _ = try await pipeline.importRecords([(item.date, status, entry.note)])
                    }
                case .arrival, .departure:
                    guard let source = entry.source, let at = entry.instant else { continue }
                    _ = try await pipeline.submit(CheckInEvent(source: source, rule: nil, time: at, kind: entry.kind == .arrival ? .arrival : .departure),
                                            asked: session.now)
                }
            }
            let dates = Set(imported.entries.map(\.date)).count
            print(trn("Imported the entries of \(dates) date from \(file) as they were exported (origins, check-ins and their times).",
                      "Imported the entries of \(dates) dates from \(file) as they were exported (origins, check-ins and their times).", dates))
            return
        }
        let signs = imported.signs.map { LatestSign(date: $0.date, source: .import, at: $0.at, kind: $0.kind) }
        // A time clock's file, times and records, in one transaction: all or nothing.
        let written = try await session.pipeline().importRows(signs: signs, records: imported.records.map { ($0.date, $0.status, $0.note) })
        if written == (0, 0), !signs.isEmpty || !imported.records.isEmpty {
            print(tr("Nothing changed: the database holds everything \(file) says already."))
            return
        }
        if !imported.signs.isEmpty {
            // A time clock's arrivals and departures: check-ins of source `import`, giving time on site.
            let days = imported.signDates
            print(trn("Imported the arrival and departure times of \(days) day from \(file) (check-ins of source import).",
                      "Imported the arrival and departure times of \(days) days from \(file) (check-ins of source import).", days))
            if imported.records.isEmpty { return }
        }
        let count = written.records
        // A manual record decides its date: say which imported dates it overrules, so nothing is lost silently.
        if let first = imported.records.map(\.date).min(), let last = imported.records.map(\.date).max() {
            let imported = Set(imported.records.map(\.date))
            let decided = try session.readStore().records(in: DateSpan(first, last))
                .filter { $0.origin == .manual && imported.contains($0.date) }.map(\.date)
            let dates = Array(Set(decided)).sorted()
            if !dates.isEmpty {
                let locale = session.reportLocale
                let shown = locale.list(dates.prefix(5).map(locale.day)) + (dates.count > 5 ? " …" : "")
                printError("deskdays: " + trn("\(dates.count) imported date already has a manual record, which decides it: \(shown). `deskdays clear` removes manual records.",
                                              "\(dates.count) imported dates already have a manual record, which decides them: \(shown). `deskdays clear` removes manual records.", dates.count))
            }
        }
        print(trn("Imported \(count) record from \(file) (manual records and check-ins still take precedence).",
                  "Imported \(count) records from \(file) (manual records and check-ins still take precedence).", count))
        if imported.timedEvents > 0 {
            let timed = imported.timedEvents
            print(trn("Skipped \(timed) timed event (with a time of day): only all-day events are days.",
                      "Skipped \(timed) timed events (with a time of day): only all-day events are days.", timed))
        }
    }
}

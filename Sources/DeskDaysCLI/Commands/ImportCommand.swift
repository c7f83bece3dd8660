import ArgumentParser
import DeskDaysCore
import DeskDaysExchange
import Foundation

/// `deskdays import FILE`: backfilled history as imported records.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: tr("Import history from a DeskDays CSV/JSON export or an iCalendar file of all-day events."))

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp(tr("The file to import.")))
    var file: String

    /// How many skipped rows are named one by one; the rest are counted.
    static let namedSkips = 20

    func run() async throws {
        let session = try Session(global)
        guard let data = FileManager.default.contents(atPath: file) else {
            throw CLIError(tr("Cannot read \(file); check the path and that you may read it."))
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw CLIError(tr("\(file) is not UTF-8 text; save it as UTF-8 CSV, JSON or iCalendar."))
        }
        let horizon = session.today.adding(days: 366 * 5)
        let imported = try Exchange.parseImport(text, file: file, horizon: horizon)
        // Rows with an unknown status are named, not guessed at (docs/cli.md, "Status words").
        for row in imported.skipped.prefix(Self.namedSkips) { printError("deskdays: \(row)") }
        if imported.skipped.count > Self.namedSkips {
            let more = imported.skipped.count - Self.namedSkips
            printError("deskdays: " + trn("… and \(more) more row with an unknown status, skipped.",
                                          "… and \(more) more rows with an unknown status, skipped.", more))
        }
        let count = try await session.pipeline().importRecords(imported.records.map { ($0.date, $0.status, $0.note) })
        print(trn("Imported \(count) record from \(file) (manual records and check-ins still take precedence).",
                  "Imported \(count) records from \(file) (manual records and check-ins still take precedence).", count))
        if text.drop(while: { $0.isWhitespace || $0 == "\u{FEFF}" }).uppercased().hasPrefix("BEGIN:VCALENDAR"),
           let timed = try? ICalendar.scan(text, horizon: horizon).timedEvents, timed > 0 {
            print(trn("Skipped \(timed) timed event (with a time of day): only all-day events are days.",
                      "Skipped \(timed) timed events (with a time of day): only all-day events are days.", timed))
        }
    }
}

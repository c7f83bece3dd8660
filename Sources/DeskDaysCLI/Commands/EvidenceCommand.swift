import Localization
import CommandSupport
import ArgumentParser
import DeskDaysCore
import DeskDaysReports
import Foundation

/// `deskdays evidence --period P --out FILE.html`: a printable page for a
/// dispute (docs/cli.md), and the SHA-256 of its day table on stdout.
struct EvidenceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evidence",
        abstract: tr("Write a printable evidence page for a period: the policy, every day with its sources and times, every edit."),
        discussion: tr("""
        The page is self-contained (no scripts, nothing fetched) and holds no identifiers or places. \
        The SHA-256 digest of its day table is printed on the page and here, so a printed copy can be \
        matched with the file.
        """))

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp(tr("current, previous, or a date YYYY-MM-DD inside the period.")))
    var period = "current"

    @Option(help: ArgumentHelp(tr("The HTML file to write (replaced if it exists).")))
    var out: String

    func validate() throws {
        guard let selector = PeriodSelector(period) else {
            throw ValidationError(tr("--period \(period) is not current, previous or a date written YYYY-MM-DD."))
        }
        if case .containing(let date) = selector, !date.isSupported {
            throw ValidationError(tr("--period \(period) is \(LocalDate.unsupportedPhrase)."))
        }
    }

    func run() async throws {
        let session = try Session(global)
        let selector = PeriodSelector(period)!
        let store = try session.readStore()
        let report = try session.report(selector, store: store)
        let span = report.period.span
        let evidence = try session.evidence(span, store: store)
        let checkin = session.configuration.checkin
        let fallback = checkin.fallbackStatus.map { (status: AttendanceStatus) -> String in
            guard let time = checkin.fallbackTime else { return tr("\(Words.status(status)) at \(tr("off"))") }
            return tr("\(Words.status(status)) at \(time)")
        } ?? tr("none")
        let page = EvidencePage(
            policy: session.policy, report: report, resolved: evidence.resolved, presence: evidence.presence,
            records: evidence.records, writtenTimes: try store.writtenTimes(of: evidence.records),
            removals: try store.removals(in: span).map {
                // The kind of entry only: a removed check-in's rule name stays out of the page.
                EvidencePage.Removal(date: $0.date, origin: $0.origin,
                                     entry: $0.entry.components(separatedBy: ", rule ").first ?? $0.entry, removedAt: $0.removedAt)
            },
            settings: [(tr("End-of-day fallback"), fallback)], generated: session.now.date)
        let path = expandTilde(out)
        try writeUserFile(path, contents: Data(page.html().utf8))
        print(tr("Wrote \(path): \(session.reportLocale.periodLabel(report.period)), \(session.reportLocale.day(span.start)) to \(session.reportLocale.day(span.end))."))
        print(tr("SHA-256 of the day table: \(page.digest())"))
    }
}

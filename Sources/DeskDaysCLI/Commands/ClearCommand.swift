import Localization
import CommandSupport
import AgentSocket
import ArgumentParser
import DeskDaysCore
import DeskDaysReports

extension ClearScope: ExpressibleByArgument {}

/// `deskdays clear`: removes entries of a date, and records each removal.
struct ClearCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clear", abstract: tr("Remove a date's manual record (or, with --origin, its other entries)."),
        discussion: tr("""
        By default only the manual records go (automatic check-ins stay). \
        --origin automatic removes the date's check-ins (NFC, QR, Wi-Fi, GPS, \
        events), import its imported records, fallback the end-of-day fallback, \
        all every entry. Each removal is recorded and shown by `deskdays explain`; \
        nothing is deleted silently. A later check-in of the same date counts again.
        """))

    @OptionGroup var global: GlobalOptions
    @OptionGroup var socket: SocketOptions

    @Option(help: ArgumentHelp(tr("The date, YYYY-MM-DD.")))
    var date: String?

    @Option(help: ArgumentHelp(tr("First date of a range (every date, not only workdays), with --to.")))
    var from: String?

    @Option(help: ArgumentHelp(tr("Last date of a range, with --from.")))
    var to: String?

    @Option(help: ArgumentHelp(tr("Which entries: manual, automatic, import, fallback or all.")))
    var origin: ClearScope = .manual

    func validate() throws {
        if date != nil, from != nil || to != nil {
            throw ValidationError(tr("Use either --date or --from/--to, not both."))
        }
        if (from == nil) != (to == nil) {
            throw ValidationError(tr("A range needs both --from and --to."))
        }
        if date == nil, from == nil {
            throw ValidationError(tr("Name what to clear: --date D, or --from D1 --to D2."))
        }
    }

    func run() async throws {
        let session = try Session(global, agent: socket.link())
        var dates: [LocalDate]
        if let from, let to {
            let first = try Session.date(from, option: "--from"), last = try Session.date(to, option: "--to")
            guard first <= last else { throw CLIError(tr("--from \(session.reportLocale.day(first)) is after --to \(session.reportLocale.day(last)); swap them.")) }
            guard first.days(to: last) <= 366 else {
                throw CLIError(tr("The range \(session.reportLocale.day(first)) to \(session.reportLocale.day(last)) is longer than a year; record it in parts."))
            }
            dates = Array(DateSpan(first, last))
        } else {
            dates = [try Session.date(date ?? "", option: "--date")]
        }
        // Through the running agent when there is one, else straight into the database; one date at a time.
        var removed: [(LocalDate, [String])] = []
        for day in dates {
            let id = AgentRoute.newRequestID()
            if let reply = try AgentRoute.send(.clear(date: day, origins: origin.origins), socket: socket, global: global, id: id) {
                removed.append((day, reply.strings(.removed) ?? []))
            } else {
                let pipeline = try session.pipeline()
                removed.append((day, try await AgentRoute.direct(id) { try await pipeline.clear(date: day, origins: origin.origins) }?.map(\.entry) ?? []))
            }
        }
        let (first, last) = (dates.first!, dates.last!)
        let count = removed.reduce(0) { $0 + $1.1.count }
        guard count > 0 else {
            let locale = session.reportLocale
            let what = first == last ? locale.day(first) : "\(locale.day(first)) – \(locale.day(last))"
            return print(origin == .all ? tr("\(what) had no entry; nothing changed.")
                                        : tr("\(what) had no \(Origin(rawValue: origin.rawValue).map(Words.origin) ?? origin.rawValue) entry; nothing changed."))
        }
        if first == last {
            // The stored words ("office record", shared with the socket and the journal) in the user's language.
            let entries = removed[0].1.map(Words.removedEntry).joined(separator: "; ")
            print(tr("Removed from \(session.reportLocale.day(first)): \(entries). `deskdays explain \(first)` lists removals."))
        } else {
            let days = removed.filter { !$0.1.isEmpty }.count
            let (from, to) = (session.reportLocale.day(first), session.reportLocale.day(last))
            print(trn("Removed \(count) entry from \(days) of the dates \(from) to \(to); `deskdays explain DATE` lists each date's removals.",
                      "Removed \(count) entries from \(days) of the dates \(from) to \(to); `deskdays explain DATE` lists each date's removals.", count))
        }
        try session.writeCalendar()
        print(Render.statusLine(try session.report()))
    }
}

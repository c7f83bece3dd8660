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
    var date: String

    @Option(help: ArgumentHelp(tr("Which entries: manual, automatic, import, fallback or all.")))
    var origin: ClearScope = .manual

    func run() async throws {
        let session = try Session(global)
        let day = try Session.date(date, option: "--date")
        // Through the running agent when there is one, else straight into the database.
        let removed: [String]
        if let reply = try AgentRoute.send(.clear(date: day, origins: origin.origins), socket: socket, global: global) {
            removed = reply["removed"] as? [String] ?? []
        } else {
            removed = try await session.pipeline().clear(date: day, origins: origin.origins).map(\.entry)
        }
        guard !removed.isEmpty else {
            return print(origin == .all ? tr("\(day) had no entry; nothing changed.")
                                        : tr("\(day) had no \(origin.rawValue) entry; nothing changed."))
        }
        // The stored words ("office record", shared with the socket and the journal) in the user's language.
        let entries = removed.map(Words.removedEntry).joined(separator: "; ")
        print(tr("Removed from \(day): \(entries). `deskdays explain \(day)` lists removals."))
        print(Render.statusLine(try session.report()))
    }
}

import ArgumentParser
import DeskDaysCore

extension AttendanceStatus: ExpressibleByArgument {}

/// `deskdays checkin`: a manual record (the user always wins).
struct CheckInCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "checkin", abstract: "Record a day (default: today, office) or a range of workdays by hand.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var socket: SocketOptions

    @Option(help: "The date, YYYY-MM-DD (default: today).")
    var date: String?

    @Option(help: "office, travel, remote, sick, vacation or leave.")
    var status: AttendanceStatus = .office

    @Option(help: "A note kept with the record.")
    var note: String?

    @Option(help: "First date of a range (workdays only), with --to.")
    var from: String?

    @Option(help: "Last date of a range, with --from.")
    var to: String?

    func validate() throws {
        if date != nil, from != nil || to != nil {
            throw ValidationError("Use either --date or --from/--to, not both.")
        }
        if (from == nil) != (to == nil) {
            throw ValidationError("A range needs both --from and --to.")
        }
    }

    func run() async throws {
        let session = try Session(global)
        let dates: [LocalDate]
        if let from, let to {
            let first = try Session.date(from, option: "--from"), last = try Session.date(to, option: "--to")
            guard first <= last else {
                throw CLIError("--from \(first) is after --to \(last); swap them.")
            }
            guard first.days(to: last) <= 366 else {
                throw CLIError("The range \(first) to \(last) is longer than a year; record it in parts.")
            }
            dates = DateSpan(first, last).filter(session.policy.isWorkday)
            guard !dates.isEmpty else {
                throw CLIError("\(first) to \(last) holds no workday; nothing was recorded.")
            }
        } else {
            dates = [try date.map { try Session.date($0, option: "--date") } ?? session.today]
        }
        // Through the running agent when there is one, else straight into the database.
        if try AgentRoute.send(.checkin(dates: dates, status: status, note: note), socket: socket, global: global) == nil {
            try await session.pipeline().recordManual(dates: dates, status: status, note: note)
        }
        if dates.count == 1 {
            print("Recorded \(status.rawValue) for \(dates[0]).")
        } else {
            print("Recorded \(status.rawValue) for \(dates.count) workdays, \(dates.first!) to \(dates.last!).")
        }
        print(Render.statusLine(try session.report()))
    }
}

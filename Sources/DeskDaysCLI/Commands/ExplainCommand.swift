import ArgumentParser
import DeskDaysCore
import Foundation

/// `deskdays explain D`: why a date resolved as it did.
struct ExplainCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain", abstract: "Show the records and check-ins behind a date's status.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The date, YYYY-MM-DD.")
    var date: String

    func run() async throws {
        let session = try Session(global)
        let day = try Session.date(date, option: "date")
        let store = try session.readStore()
        let span = DateSpan(day, day)
        let records = try store.records(in: span)
        let checkIns = try store.checkIns(in: span)
        let resolved = Resolver.resolve(day, records: records, checkIns: checkIns)
        let policy = session.policy
        var lines: [String] = []
        let kind = policy.holidays[day].map { "a holiday (\($0))" }
            ?? (policy.workdays.contains(day.weekday) ? "a workday" : "not a workday")
        lines.append("\(day) (\(day.weekday.fullName.capitalized)) is \(kind).")
        if let status = resolved.status, let origin = resolved.origin {
            lines.append("Resolved: \(status.rawValue), counted as \(policy.treatment(of: status).rawValue), from the \(origin.rawValue) \(origin == .automatic ? "check-ins" : "record").")
        } else {
            lines.append("Resolved: no status" + (day < session.today ? " (counts as unrecorded, like a remote day)." : "."))
        }
        lines.append("Precedence: manual > automatic > imported > fallback.")
        let sorted = records.sorted { ($0.recordedAt, $0.id ?? 0) < ($1.recordedAt, $1.id ?? 0) }
        for record in sorted {
            let note = record.note.map { " — \"\($0)\"" } ?? ""
            lines.append("  record    \(record.origin.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)) \(record.status.rawValue) (written \(formatRFC3339(record.recordedAt)))\(note)")
        }
        for checkIn in checkIns.sorted(by: { $0.at < $1.at }) {
            let rule = checkIn.rule.map { " rule \"\($0)\"" } ?? ""
            lines.append("  check-in  \(checkIn.source.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)) at \(formatRFC3339(checkIn.at))\(rule)")
        }
        if records.isEmpty && checkIns.isEmpty { lines.append("  nothing is stored for this date.") }
        print(lines.joined(separator: "\n"))
    }
}

import ArgumentParser
import DeskDaysCore
import DeskDaysStore
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
        let evidence = try session.evidence(span, store: store)
        let records = evidence.records, checkIns = evidence.checkIns
        let presence = evidence.presence[day]
        let resolved = evidence.resolved[day] ?? ResolvedDay(date: day, status: nil, origin: nil, sources: [])
        let policy = session.policy
        var lines: [String] = []
        let workday = policy.isWorkday(day)
        let kind = policy.holidays[day].map { "a holiday (\($0))" } ?? (workday ? "a workday" : "not a workday")
        lines.append("\(day) (\(day.weekday.fullName.capitalized)) is \(kind).")
        if let status = resolved.status, let origin = resolved.origin {
            lines.append("Resolved: \(status.rawValue), from the \(origin.rawValue) \(origin == .automatic ? "check-ins" : "record").")
        } else {
            lines.append("Resolved: no status.")
        }
        // How it counts comes from the policy engine itself, the same call the report makes.
        let count = PolicyEngine(policy: policy).classify(day, status: resolved.status, today: session.today)
        lines.append("Counts: " + Self.words(for: count, workday: workday, status: resolved.status, policy: policy) + ".")
        lines.append("Precedence: manual > automatic > imported > fallback.")
        // Times in the policy's time zone, the one the date is counted in.
        let style = Date.ISO8601FormatStyle(timeZoneSeparator: .colon, timeZone: policy.timeZone)
        func local(_ instant: Date) -> String { instant.formatted(style) }
        // With sync, the device behind each entry (its journal line).
        let journal = try store.syncIdentity() == nil ? [] : try store.journalLines(on: day)
        func from(_ matches: (JournalEntry) -> Bool) -> String {
            journal.last(where: { matches($0.entry) }).map { " (from \($0.device))" } ?? ""
        }
        let sorted = records.sorted { ($0.recordedAt, $0.id ?? 0) < ($1.recordedAt, $1.id ?? 0) }
        for record in sorted {
            let note = record.note.map { " — \"\($0)\"" } ?? ""
            lines.append("  record    \(record.origin.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)) \(record.status.rawValue) (written \(local(record.recordedAt)))\(note)"
                         + from { $0.op == "record" && $0.status == record.status.rawValue && $0.origin == record.origin.rawValue
                                  && $0.hlc == HLC.milliseconds(record.recordedAt) })
        }
        for checkIn in checkIns.sorted(by: { $0.at < $1.at }) {
            let rule = checkIn.rule.map { " rule \"\($0)\"" } ?? ""
            lines.append("  check-in  \(checkIn.source.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)) at \(local(checkIn.at))\(rule)"
                         + from { ($0.op == "checkin" || $0.op == "sign" && $0.kind == "arrival") && $0.source == checkIn.source.rawValue
                                  && $0.at.flatMap(parseRFC3339).map(HLC.milliseconds) == HLC.milliseconds(checkIn.at) })
        }
        if records.isEmpty && checkIns.isEmpty { lines.append("  nothing is stored for this date.") }
        if let presence {
            lines.append(contentsOf: Self.presenceLines(presence, policy: policy, today: session.today))
        }
        for removal in try store.removals(in: span) {
            lines.append("  removed   \(removal.origin.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)) \(removal.entry) (on \(local(removal.removedAt)))"
                         + from { ($0.op == "clear" || $0.op == "removed") && $0.hlc == HLC.milliseconds(removal.removedAt) })
        }
        print(lines.joined(separator: "\n"))
    }

    /// Time on site and the arrivals and departures that decided it (docs/policy.md "Time on site").
    static func presenceLines(_ presence: DayPresence, policy: Policy, today: LocalDate) -> [String] {
        let first = policy.clockTime(of: presence.firstSeen), last = policy.clockTime(of: presence.lastSeen)
        var lines = ["Time on site: \(first)–\(last), \(presence.hours) h"
                     + (policy.dayStartMinutes == 0 ? "" : " (the day starts at \(policy.dayStartText))") + "."]
        for part in presence.parts {
            let name = part.source.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)
            var words: [String] = []
            if let arrival = part.firstArrival { words.append("first arrival \(policy.clockTime(of: arrival))") }
            if part.present {
                words.append(presence.date == today && part.last < policy.start(of: presence.date.adding(days: 1))
                             ? "still present now (\(policy.clockTime(of: part.last)))"
                             : "present until the day ended (\(policy.clockTime(of: part.last)))")
            } else if part.source.isInstant {
                if part.last != part.firstArrival { words.append("last tap \(policy.clockTime(of: part.last))") }
            } else if part.last != part.firstArrival {
                words.append(part.firstArrival == nil ? "left \(policy.clockTime(of: part.last)) (arrived on an earlier day)"
                                                      : "left \(policy.clockTime(of: part.last))")
            }
            lines.append("  \(part.source.isInstant ? "tap" : "presence")  \(name) " + words.joined(separator: ", "))
        }
        if policy.minHours > 0 {
            let hours = DaysCommand.hoursText(policy.minHours)
            lines.append(presence.isShort(minHours: policy.minHours)
                ? "Shorter than min_hours = \(hours): the check-ins do not make it an office day (a manual record still can)."
                : "At least min_hours = \(hours): the check-ins make it an office day.")
        }
        return lines
    }

    /// How a date counts, in words (docs/policy.md, "Counting a period").
    static func words(for count: PolicyEngine.DayCount, workday: Bool, status: AttendanceStatus?, policy: Policy) -> String {
        switch count {
        case .skipped:
            return "not at all: " + nonWorkdayReason(status: status, policy: policy)
        case .excused: return "excused: it leaves the eligible workdays"
        case .office: return workday ? "as an office day" : "as an office day and an eligible day (count_non_workdays)"
        case .remote: return "as a remote day: eligible, not in the office"
        case .unrecorded: return "unrecorded: eligible, not in the office, like a remote day"
        case .pending(let planned): return planned ? "not yet: a planned office day" : "not yet: still to come"
        }
    }

    /// Why a weekend or holiday does not count, and how it could.
    static func nonWorkdayReason(status: AttendanceStatus?, policy: Policy) -> String {
        let reason = "it is not a workday"
        guard status.map(policy.treatment(of:)) == .office, !policy.countNonWorkdays else { return reason }
        return reason + " (set count_non_workdays = true in [policy] to count office days on weekends and holidays)"
    }
}

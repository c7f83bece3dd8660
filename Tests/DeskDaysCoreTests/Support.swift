import DeskDaysCore
import Foundation

// MARK: - Small helpers shared by the suites

/// A date from its `YYYY-MM-DD` text; a typo in a test is a programmer error.
func day(_ text: String) -> LocalDate {
    guard let date = LocalDate(text) else { preconditionFailure("bad test date \(text)") }
    return date
}

/// An instant from RFC 3339 text.
func instant(_ text: String) -> Date {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    guard let date = formatter.date(from: text) else { preconditionFailure("bad test instant \(text)") }
    return date
}

func zone(_ identifier: String) -> TimeZone {
    guard let zone = TimeZone(identifier: identifier) else { preconditionFailure("no zone \(identifier)") }
    return zone
}

let mondayToFriday: Set<Weekday> = [.monday, .tuesday, .wednesday, .thursday, .friday]

/// The statuses of a hand-built calendar: a date → status map with range fillers.
struct Book {
    var statuses: [LocalDate: AttendanceStatus] = [:]

    subscript(_ text: String) -> AttendanceStatus? {
        get { statuses[day(text)] }
        set { statuses[day(text)] = newValue }
    }

    /// Sets `status` on every date of `from…to` whose weekday is in `weekdays`.
    mutating func fill(_ from: String, _ to: String, _ status: AttendanceStatus,
                       weekdays: Set<Weekday> = mondayToFriday) {
        for date in DateSpan(day(from), day(to)) where weekdays.contains(date.weekday) {
            statuses[date] = status
        }
    }

    /// Sets `status` on each listed date.
    mutating func set(_ status: AttendanceStatus, on dates: String...) {
        for text in dates { statuses[day(text)] = status }
    }
}

extension Policy {
    /// A policy in UTC with the documented defaults and the given changes: a
    /// fixed zone keeps tests independent of the machine's zone.
    static func make(_ change: (inout Policy) -> Void = { _ in }) -> Policy {
        var policy = Policy(timeZone: zone("UTC"))
        change(&policy)
        return policy
    }

    /// The report for `selector` on `today` over `book`.
    func report(today: String, _ book: Book = Book(), _ selector: PeriodSelector = .current) -> Report {
        PolicyEngine(policy: self).report(selector, today: day(today)) { book.statuses[$0] }
    }
}

/// The status order the monotonicity property relies on: worse < better.
extension Report.Status {
    var rank: Int {
        switch self {
        case .impossible: return 0
        case .behind: return 1
        case .onTrack: return 2
        case .met: return 3
        case .notStarted: return 4
        }
    }
}

/// The day figures of a report, compared as one value so a failure shows them all.
struct DayFigures: Equatable, CustomStringConvertible {
    var workdays, excused, eligible, office, remote, unrecorded, elapsed, pending, plannedOffice: Int

    init(workdays: Int, excused: Int, eligible: Int, office: Int, remote: Int, unrecorded: Int,
         elapsed: Int, pending: Int, plannedOffice: Int = 0) {
        self.workdays = workdays
        self.excused = excused
        self.eligible = eligible
        self.office = office
        self.remote = remote
        self.unrecorded = unrecorded
        self.elapsed = elapsed
        self.pending = pending
        self.plannedOffice = plannedOffice
    }

    init(_ report: Report) {
        self.init(workdays: report.workdays, excused: report.excused, eligible: report.eligible,
                  office: report.office, remote: report.remote, unrecorded: report.unrecorded,
                  elapsed: report.elapsed, pending: report.pending, plannedOffice: report.plannedOffice)
    }

    var description: String {
        "workdays \(workdays) excused \(excused) eligible \(eligible) office \(office) remote \(remote) "
            + "unrecorded \(unrecorded) elapsed \(elapsed) pending \(pending) planned \(plannedOffice)"
    }
}

/// The target figures of a report.
struct TargetFigures: Equatable, CustomStringConvertible {
    var required, requiredToDate, remainingRequired: Int
    var status: Report.Status

    init(required: Int, requiredToDate: Int, remainingRequired: Int, status: Report.Status) {
        self.required = required
        self.requiredToDate = requiredToDate
        self.remainingRequired = remainingRequired
        self.status = status
    }

    init(_ report: Report) {
        self.init(required: report.required, requiredToDate: report.requiredToDate,
                  remainingRequired: report.remainingRequired, status: report.status)
    }

    var description: String {
        "required \(required) to_date \(requiredToDate) remaining \(remainingRequired) \(status.rawValue)"
    }
}

/// One row of `weeks`, as text for compact expectations: `start required office met`.
func weekRows(_ report: Report) -> [String] {
    (report.weeks ?? []).map { "\($0.start) \($0.required) \($0.office) \($0.met)" }
}

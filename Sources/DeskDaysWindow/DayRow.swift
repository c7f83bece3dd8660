import DeskDaysCore
import DeskDaysReports
import Foundation

/// One row of `days --json` (the D-Bus `Days` method): a date as the store resolved it.
struct DayRow: Decodable, Equatable {
    var date: LocalDate
    var workday: Bool
    var status: AttendanceStatus?
    var origin: String?
    var sources: [String]?
    var firstSeen: String?
    var lastSeen: String?
    var note: String?

    enum CodingKeys: String, CodingKey {
        case date, workday, status, origin, sources, firstSeen = "first_seen", lastSeen = "last_seen", note
    }

    /// The rows of a `Days` answer; nil for anything else (a reply is input like any other).
    static func rows(_ json: String) -> [DayRow]? {
        try? JSONDecoder().decode([DayRow].self, from: Data(json.utf8))
    }

    /// How the calendar colours the date, as the report's heatmap names it (DeskDaysReports.DayKind):
    /// the agent's rows carry the policy's decision (`workday`), so no rule is applied here.
    func kind(today: LocalDate) -> DayKind {
        if let status {
            switch status {
            case .office, .travel: return date > today ? .planned : .office
            case .remote: return .remote
            default: return .excused
            }
        }
        guard workday else { return .weekend }
        return date < today ? .unrecorded : .pending
    }
}

extension Report {
    /// A `Report` answer read back; nil when it is not one.
    static func decoded(_ json: String) -> Report? {
        try? JSONDecoder().decode(Report.self, from: Data(json.utf8))
    }
}

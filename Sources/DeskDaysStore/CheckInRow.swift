import DeskDaysCore
import GRDB

/// One row of the `checkin` table: the first automatic check-in of a source on a date.
struct CheckInRow: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "checkin"

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let date = Column(CodingKeys.date)
        static let source = Column(CodingKeys.source)
        static let at = Column(CodingKeys.at)
    }

    var id: Int64?
    var date: String
    var source: String
    var rule: String?
    var at: String

    init(_ checkIn: AutomaticCheckIn) {
        id = nil
        date = checkIn.date.description
        source = checkIn.source.rawValue
        rule = checkIn.rule
        at = UTCTimestamp.string(from: checkIn.at)
    }

    /// The value, or nil when someone edited the row into something this build cannot read.
    var automaticCheckIn: AutomaticCheckIn? {
        guard let date = LocalDate(date), let source = Source(rawValue: source), source.isAutomatic,
              let at = UTCTimestamp.date(from: at) else { return nil }
        return AutomaticCheckIn(date: date, source: source, rule: rule, at: at)
    }
}

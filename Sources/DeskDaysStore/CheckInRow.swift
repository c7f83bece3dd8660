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

    /// The columns in the order `init(row:)` reads them.
    static var databaseSelection: [any SQLSelectable] {
        [Column(CodingKeys.id), Column(CodingKeys.date), Column(CodingKeys.source), Column(CodingKeys.rule), Column(CodingKeys.at)]
    }

    /// Reads the columns by position (see `RecordRow.init(row:)`).
    init(row: Row) throws {
        id = row[0]
        date = row[1]
        source = row[2]
        rule = row[3]
        at = row[4]
    }

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

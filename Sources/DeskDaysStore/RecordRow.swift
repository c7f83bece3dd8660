import DeskDaysCore
import GRDB

/// One row of the `record` table: a manual, imported or fallback status for a date.
struct RecordRow: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "record"

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let date = Column(CodingKeys.date)
        static let origin = Column(CodingKeys.origin)
        static let recordedAt = Column(CodingKeys.recordedAt)
    }

    var id: Int64?
    var date: String
    var status: String
    var origin: String
    var note: String?
    var recordedAt: String
    /// `DayRecord.Plan`'s raw value, or NULL (migration v10).
    var plan: String?

    /// The columns in the order `init(row:)` reads them.
    static var databaseSelection: [any SQLSelectable] {
        [Column(CodingKeys.id), Column(CodingKeys.date), Column(CodingKeys.status), Column(CodingKeys.origin), Column(CodingKeys.note), Column(CodingKeys.recordedAt), Column(CodingKeys.plan)]
    }

    /// Reads the columns by position: the Codable decoder is ten times
    /// slower, which shows when a report reads ten years of records.
    init(row: Row) throws {
        id = row[0]
        date = row[1]
        status = row[2]
        origin = row[3]
        note = row[4]
        recordedAt = row[5]
        plan = row[6]
    }

    init(_ record: DayRecord) {
        id = record.id
        date = record.date.description
        status = record.status.rawValue
        origin = record.origin.rawValue
        note = record.note
        recordedAt = UTCTimestamp.string(from: record.recordedAt)
        plan = record.plan?.rawValue
    }

    /// The value, or nil when someone edited the row into something this build cannot read.
    var dayRecord: DayRecord? {
        guard let date = LocalDate(date), let status = AttendanceStatus(rawValue: status),
              let origin = Origin(rawValue: origin), origin != .automatic,
              let recordedAt = UTCTimestamp.date(from: recordedAt) else { return nil }
        let mark = plan.flatMap(DayRecord.Plan.init(rawValue:))
        if plan != nil, mark == nil { return nil }
        return DayRecord(id: id, date: date, status: status, origin: origin, note: note, recordedAt: recordedAt, plan: mark)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

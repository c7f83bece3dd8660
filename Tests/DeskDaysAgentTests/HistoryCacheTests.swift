import DeskDaysAnswer
import DeskDaysCore
import DeskDaysReports
import DeskDaysStore
import Foundation
import Testing

/// The agent's kept history (`HistoryCache`, fed by the store's notes of
/// the dates its writes touched) gives byte for byte the answer of reading
/// everything, after every kind of write, on any date of a long history,
/// and after another process's write.
@Suite struct HistoryCacheTests {
    /// A seeded generator, so a failure can be replayed.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func keptHistoryAnswersAsReadingEverything(seed: UInt64) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("history-cache-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("deskdays.sqlite").path
        let store = try AttendanceStore(path: path)
        try store.trackChangedDates()
        var utc = Policy(timeZone: TimeZone(identifier: "UTC")!)
        utc.target = Target(kind: .percent, hundredths: 6000)
        let answers = Answers(policy: utc, locale: ReportLocale(identifier: "C"))
        let today = LocalDate(year: 2026, month: 11, day: 19)!
        let cache = HistoryCache()
        var random = Generator(state: seed)
        var version = try store.dataVersion()
        let statuses: [AttendanceStatus] = [.office, .remote, .sick, .vacation]
        let origins: [Origin] = [.manual, .import, .fallback]
        let clock = Date(timeIntervalSince1970: 1_790_000_000)

        for step in 0..<160 {
            // Mostly the past three years (the streaks' history), sometimes this period.
            let back = Bool.random(using: &random) ? Int.random(in: 0...60, using: &random) : Int.random(in: 0...1_100, using: &random)
            let date = today.adding(days: -back)
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<4:
                try store.addRecords([DayRecord(date: date, status: statuses.randomElement(using: &random)!,
                                                origin: origins.randomElement(using: &random)!, recordedAt: clock.addingTimeInterval(Double(step)))])
            case 4..<7:
                _ = try store.insertCheckIn(AutomaticCheckIn(date: date, source: [.nfc, .wifi, .gps].randomElement(using: &random)!,
                                                             rule: nil, at: utc.instant(of: date)))
            case 7..<9:
                _ = try store.remove(on: date, origins: Set(origins + [.automatic]).filter { _ in Bool.random(using: &random) },
                                     at: clock.addingTimeInterval(Double(step)))
            default:
                // Another process (another connection) writes: not noted here; data_version tells.
                let other = try AttendanceStore(path: path)
                try other.addRecords([DayRecord(date: date, status: .office, origin: .manual, recordedAt: clock.addingTimeInterval(Double(step)))])
            }
            // What the agent's CurrentAnswer does before each answer.
            let now = try store.dataVersion()
            if now != version { cache.invalidate() }
            version = now
            cache.touched(try store.takeChangedDates())
            let kept = try answers.everything(store: store, today: today, cache: cache)
            let read = try answers.everything(store: store, today: today)
            #expect(kept.report == read.report, "seed \(seed), step \(step), \(date)")
            #expect(kept.status == read.status, "seed \(seed), step \(step), \(date)")
            if kept.report != read.report { return }
        }
    }

    /// A burst of more dates than the notes keep reads everything, still the same answer.
    @Test func moreChangedDatesThanTheLimitReadEverything() throws {
        let store = try AttendanceStore(path: FileManager.default.temporaryDirectory
            .appendingPathComponent("history-cache-\(UUID().uuidString).sqlite").path)
        try store.trackChangedDates()
        let today = LocalDate(year: 2026, month: 11, day: 19)!
        let records = (1...(AttendanceStore.changedDatesLimit + 10)).map {
            DayRecord(date: today.adding(days: -$0), status: .office, origin: .manual, recordedAt: Date(timeIntervalSince1970: 1_790_000_000))
        }
        try store.addRecords(records)
        #expect(try store.takeChangedDates() == nil)
        try store.addRecords([DayRecord(date: today, status: .remote, origin: .manual, recordedAt: Date(timeIntervalSince1970: 1_790_000_001))])
        #expect(try store.takeChangedDates() == [today])
        #expect(try store.takeChangedDates() == [])
    }
}

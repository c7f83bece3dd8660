import DeskDaysCore
import DeskDaysReports
import Foundation

/// Fixed scenarios the golden files are rendered from.
enum Scenarios {
    static func date(_ text: String) -> LocalDate { LocalDate(text)! }
    static let stamp = Date(timeIntervalSince1970: 1_790_000_000)

    /// Resolves records and check-ins exactly as the CLI does.
    static func data(policy: Policy, today: LocalDate, records: [DayRecord], checkIns: [AutomaticCheckIn]) -> ReportData {
        let engine = PolicyEngine(policy: policy)
        let report = engine.report(.current, today: today, records: records, checkIns: checkIns)
        let first = ([report.period.start] + records.map(\.date) + checkIns.map(\.date)).min()!
        let span = DateSpan(first, max(report.period.end, policy.week(containing: today).end))
        let days = Resolver.resolve(span, records: records, checkIns: checkIns)
        let calculator = StreakCalculator(policy: policy, today: today)
        let streaks = StreakCalculator.streaks(calculator.weeks(from: first) { days[$0]?.status })
        return ReportData(policy: policy, report: report, days: days, streaks: streaks)
    }

    /// docs/policy.md's worked example: 60 %, Q4 2026, holidays Dec 25 and 28,
    /// vacation entered ahead, today Wed 2026-11-18; before today 20 office,
    /// 13 remote and 1 unrecorded workday. Plus one planned office day, a
    /// rule name and a note that must never reach the HTML page.
    static func workedExample() -> ReportData {
        var policy = Policy(timeZone: TimeZone(identifier: "UTC")!)
        policy.holidays = [date("2026-12-25"): "Christmas Day", date("2026-12-28"): "Boxing Day (substitute)"]
        let today = date("2026-11-18")
        var records: [DayRecord] = []
        var checkIns: [AutomaticCheckIn] = []
        let sources: [Source] = [.nfc, .wifi, .gps, .qr]
        var workdaysBefore: [LocalDate] = []
        for day in DateSpan(date("2026-10-01"), today.adding(days: -1)) where policy.isWorkday(day) {
            workdaysBefore.append(day)
        }
        for (index, day) in workdaysBefore.enumerated() {
            switch index % 17 {
            case 0, 2, 4, 6, 8, 10, 12, 14, 16, 15:
                checkIns.append(AutomaticCheckIn(date: day, source: sources[index % 4], rule: "hq-secret-rule", at: stamp))
                if index % 3 == 0 {
                    checkIns.append(AutomaticCheckIn(date: day, source: .wifi, rule: "Corp-SSID", at: stamp))
                }
            case 1, 3, 5, 7, 9, 11:
                records.append(DayRecord(date: day, status: .remote, origin: .manual, note: "dentist appointment", recordedAt: stamp))
            default:
                records.append(DayRecord(date: day, status: .remote, origin: .fallback, recordedAt: stamp))
            }
        }
        // One unrecorded day: drop the end-of-day fallback of the 31st workday.
        let gap = workdaysBefore[30]
        records.removeAll { $0.date == gap }
        checkIns.removeAll { $0.date == gap }
        for day in DateSpan(date("2026-12-21"), date("2026-12-31")) where policy.isWorkday(day) {
            records.append(DayRecord(date: day, status: .vacation, origin: .manual, recordedAt: stamp))
        }
        records.append(DayRecord(date: date("2026-11-20"), status: .office, origin: .manual, recordedAt: stamp))
        return data(policy: policy, today: today, records: records, checkIns: checkIns)
    }

    /// Three office days a week (cap), monthly periods, weeks from Sunday,
    /// today Thu 2026-03-12: a sick week and a holiday.
    static func weeklySundayStart() -> ReportData {
        var policy = Policy(timeZone: TimeZone(identifier: "UTC")!, weekStart: .sunday, period: .month)
        policy.target = Target(kind: .daysPerWeek, hundredths: 300, reduce: .cap)
        policy.holidays = [date("2026-03-06"): "Founders' Day"]
        let today = date("2026-03-12")
        var records: [DayRecord] = []
        var checkIns: [AutomaticCheckIn] = []
        for day in DateSpan(date("2026-02-01"), today) where policy.isWorkday(day) {
            switch day.weekday {
            case .monday, .wednesday:
                checkIns.append(AutomaticCheckIn(date: day, source: .nfc, rule: "desk", at: stamp))
            case .thursday where day.day % 2 == 0:
                checkIns.append(AutomaticCheckIn(date: day, source: .qr, rule: "lobby", at: stamp))
            default:
                records.append(DayRecord(date: day, status: .remote, origin: .manual, recordedAt: stamp))
            }
        }
        records.removeAll { DateSpan(date("2026-02-15"), date("2026-02-21")).contains($0.date) }
        checkIns.removeAll { DateSpan(date("2026-02-15"), date("2026-02-21")).contains($0.date) }
        for day in DateSpan(date("2026-02-16"), date("2026-02-20")) {
            records.append(DayRecord(date: day, status: .sick, origin: .manual, recordedAt: stamp))
        }
        return data(policy: policy, today: today, records: records, checkIns: checkIns)
    }
}

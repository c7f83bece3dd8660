import DeskDaysConfig
import DeskDaysCore
import Foundation
import Testing
@testable import DeskDaysAgent

/// The reminder/fallback schedule with time passed in: once per date, nothing
/// skipped across midnight or a suspend, nothing twice after the clock goes
/// back, DST days at the named local time.
struct CheckInScheduleTests {
    static func policy(_ zone: String = "Europe/Berlin") -> Policy {
        Policy(timeZone: TimeZone(identifier: zone)!)
    }

    static func settings(reminder: String? = "10:30", fallback: String? = "20:00",
                         status: AttendanceStatus? = .remote) -> CheckinSettings {
        var settings = CheckinSettings()
        settings.reminderTime = reminder.flatMap { TimeOfDay($0) }
        settings.fallbackTime = fallback.flatMap { TimeOfDay($0) }
        settings.fallbackStatus = status
        return settings
    }

    static func at(_ text: String) -> Date {
        ISO8601DateFormatter().date(from: text)!
    }

    static func day(_ text: String) -> LocalDate { LocalDate(text)! }

    /// `[reminders] summary = "fri 16:00"`: once on Friday at 16:00 local,
    /// never twice after the clock goes back, not caught up on Saturday.
    @Test func theWeeklySummaryFiresOnItsWeekdayOnce() {
        let off = Self.settings(reminder: nil, fallback: nil, status: nil)
        let summary = WeeklyTime("fri 16:00")
        #expect(summary?.description == "fri 16:00" && WeeklyTime("friday 4pm") == nil)
        // Wed 2026-11-18; Friday the 20th at 16:00 Berlin is 15:00 UTC.
        var schedule = CheckInSchedule(policy: Self.policy(), settings: off, summary: summary, start: Self.at("2026-11-18T07:00:00Z"))
        #expect(schedule.nextFire() == Self.at("2026-11-20T15:00:00Z"))
        #expect(schedule.due(at: Self.at("2026-11-19T15:00:00Z")).isEmpty, "Thursday")
        #expect(schedule.due(at: Self.at("2026-11-20T14:59:59Z")).isEmpty)
        #expect(schedule.due(at: Self.at("2026-11-20T15:00:00Z")) == [.summary(Self.day("2026-11-20"))])
        #expect(schedule.due(at: Self.at("2026-11-20T14:00:00Z")).isEmpty, "the clock set back: never twice")
        #expect(schedule.nextFire() == Self.at("2026-11-27T15:00:00Z"))
        // Asleep through next Friday 16:00, awake on Saturday: no late summary.
        #expect(schedule.due(at: Self.at("2026-11-28T09:00:00Z")).isEmpty)
        #expect(schedule.nextFire() == Self.at("2026-12-04T15:00:00Z"))
    }

    @Test func aWorkdayFiresTheReminderThenTheFallbackOnceEach() {
        // Wed 2026-11-18, Berlin is UTC+1.
        var schedule = CheckInSchedule(policy: Self.policy(), settings: Self.settings(), start: Self.at("2026-11-18T07:00:00Z"))
        #expect(schedule.nextFire() == Self.at("2026-11-18T09:30:00Z"))
        #expect(schedule.due(at: Self.at("2026-11-18T09:29:59Z")).isEmpty)
        #expect(schedule.due(at: Self.at("2026-11-18T09:30:00Z")) == [.reminder(Self.day("2026-11-18"))])
        #expect(schedule.due(at: Self.at("2026-11-18T09:30:01Z")).isEmpty, "never twice")
        #expect(schedule.nextFire() == Self.at("2026-11-18T19:00:00Z"))
        #expect(schedule.due(at: Self.at("2026-11-18T19:00:00Z")) == [.fallback(Self.day("2026-11-18"))])
        #expect(schedule.due(at: Self.at("2026-11-18T22:00:00Z")).isEmpty)
        #expect(schedule.nextFire() == Self.at("2026-11-19T09:30:00Z"))
    }

    /// A night shift: with the day starting at 04:00, a 02:00 fallback time is
    /// the small hours of the next calendar date, still the shifted day's.
    @Test func checkinTimesAreReadOnTheShiftedDay() {
        var policy = Self.policy()
        policy.dayStartMinutes = 4 * 60
        var schedule = CheckInSchedule(policy: policy, settings: Self.settings(reminder: "23:00", fallback: "02:00"),
                                       start: Self.at("2026-11-18T12:00:00Z"))
        // Wed 18th: reminder at 23:00 local (22:00Z), fallback at 02:00 local on Thursday (01:00Z).
        #expect(schedule.nextFire() == Self.at("2026-11-18T22:00:00Z"))
        #expect(schedule.due(at: Self.at("2026-11-18T22:00:00Z")) == [.reminder(Self.day("2026-11-18"))])
        #expect(schedule.nextFire() == Self.at("2026-11-19T01:00:00Z"))
        #expect(schedule.due(at: Self.at("2026-11-19T00:59:59Z")).isEmpty)
        #expect(schedule.due(at: Self.at("2026-11-19T01:00:00Z")) == [.fallback(Self.day("2026-11-18"))])
        // 03:00 local on Thursday is still Wednesday's day: nothing more is due.
        #expect(schedule.due(at: Self.at("2026-11-19T02:00:00Z")).isEmpty)
    }

    @Test func weekendsAndHolidaysAreSkipped() {
        var policy = Self.policy()
        policy.holidays[Self.day("2026-11-23")] = "A holiday Monday"
        var schedule = CheckInSchedule(policy: policy, settings: Self.settings(), start: Self.at("2026-11-20T21:00:00Z"))
        #expect(schedule.due(at: Self.at("2026-11-20T21:00:00Z")) == [.fallback(Self.day("2026-11-20"))])
        // Next: Tuesday 24th (Sat, Sun, holiday Monday skipped).
        #expect(schedule.nextFire() == Self.at("2026-11-24T09:30:00Z"))
        #expect(schedule.due(at: Self.at("2026-11-23T21:00:00Z")).isEmpty)
    }

    @Test func aSuspendAcrossMidnightSkipsNoFallbackAndGivesNoStaleReminder() {
        var schedule = CheckInSchedule(policy: Self.policy(), settings: Self.settings(), start: Self.at("2026-11-16T08:00:00Z"))
        // Asleep from Monday 09:00 local to Thursday 11:00 local.
        let actions = schedule.due(at: Self.at("2026-11-19T10:00:00Z"))
        #expect(actions == [.fallback(Self.day("2026-11-16")), .fallback(Self.day("2026-11-17")),
                            .fallback(Self.day("2026-11-18")), .reminder(Self.day("2026-11-19"))])
        #expect(schedule.due(at: Self.at("2026-11-19T10:00:01Z")).isEmpty)
    }

    @Test func aReminderMissedUntilAfterTheFallbackTimeIsDropped() {
        var schedule = CheckInSchedule(policy: Self.policy(), settings: Self.settings(), start: Self.at("2026-11-18T08:00:00Z"))
        #expect(schedule.due(at: Self.at("2026-11-18T20:00:00Z")) == [.fallback(Self.day("2026-11-18"))])
    }

    @Test func theClockSetBackFiresNothingTwice() {
        var schedule = CheckInSchedule(policy: Self.policy(), settings: Self.settings(), start: Self.at("2026-11-18T08:00:00Z"))
        #expect(schedule.due(at: Self.at("2026-11-18T18:30:00Z")) == [.reminder(Self.day("2026-11-18"))])
        #expect(schedule.due(at: Self.at("2026-11-18T19:30:00Z")) == [.fallback(Self.day("2026-11-18"))])
        // Back a whole day, then forward again.
        #expect(schedule.due(at: Self.at("2026-11-17T19:30:00Z")).isEmpty)
        #expect(schedule.due(at: Self.at("2026-11-18T19:30:00Z")).isEmpty)
        #expect(schedule.due(at: Self.at("2026-11-19T18:30:00Z")) == [.reminder(Self.day("2026-11-19"))])
    }

    @Test func aLongSuspendCatchesUpAWeekOfFallbacksAtMost() {
        var schedule = CheckInSchedule(policy: Self.policy(), settings: Self.settings(reminder: nil),
                                       start: Self.at("2026-10-01T08:00:00Z"))
        let actions = schedule.due(at: Self.at("2026-11-18T20:00:00Z"))
        // 2026-11-11 … 2026-11-18: six workdays (Wed 11 … Wed 18 minus the weekend).
        #expect(actions.first == .fallback(Self.day("2026-11-11")))
        #expect(actions.count == 6)
    }

    @Test func dstDaysFireAtTheNamedLocalTime() {
        // Berlin springs forward on 2026-03-29 (Sunday) and falls back on 2026-10-25 (Sunday): use a
        // seven-day week so the DST Sundays are workdays.
        var policy = Self.policy()
        policy.workdays = Set(Weekday.allCases)
        var spring = CheckInSchedule(policy: policy, settings: Self.settings(reminder: "02:30", fallback: "20:00"),
                                     start: Self.at("2026-03-28T23:30:00Z"))
        // 02:30 does not exist that night: the next valid instant, 03:30 CEST = 01:30Z; once.
        #expect(spring.nextFire() == Self.at("2026-03-29T01:30:00Z"))
        #expect(spring.due(at: Self.at("2026-03-29T01:30:00Z")) == [.reminder(Self.day("2026-03-29"))])
        #expect(spring.due(at: Self.at("2026-03-29T18:00:00Z")) == [.fallback(Self.day("2026-03-29"))], "20:00 CEST")

        var autumn = CheckInSchedule(policy: policy, settings: Self.settings(reminder: "02:30", fallback: "20:00"),
                                     start: Self.at("2026-10-24T22:30:00Z"))
        // 02:30 happens twice: fires at the first, never at the second.
        #expect(autumn.due(at: Self.at("2026-10-25T00:30:00Z")) == [.reminder(Self.day("2026-10-25"))])
        #expect(autumn.due(at: Self.at("2026-10-25T01:30:00Z")).isEmpty)
        #expect(autumn.due(at: Self.at("2026-10-25T19:00:00Z")) == [.fallback(Self.day("2026-10-25"))], "20:00 CET")
    }

    @Test func fallbackNoneMeansNoFallbackAction() {
        var schedule = CheckInSchedule(policy: Self.policy(), settings: Self.settings(status: nil),
                                       start: Self.at("2026-11-18T08:00:00Z"))
        #expect(schedule.due(at: Self.at("2026-11-18T21:00:00Z")).isEmpty, "the reminder is past the fallback time too")
        #expect(schedule.nextFire() == Self.at("2026-11-19T09:30:00Z"))
    }

    @Test func nothingConfiguredMeansNoFireTime() {
        let schedule = CheckInSchedule(policy: Self.policy(), settings: Self.settings(reminder: nil, fallback: nil),
                                       start: Self.at("2026-11-18T08:00:00Z"))
        #expect(schedule.nextFire() == nil)
    }

    /// Property: however time is stepped (forward, back, big jumps), no action fires twice and,
    /// once time has passed every fallback instant, every workday's fallback has fired.
    @Test(arguments: 0..<40)
    func randomWalksFireEachFallbackExactlyOnce(seed: Int) {
        var random = SeededRandom(seed: UInt64(seed) + 1)
        let start = Self.at("2026-03-20T06:00:00Z")
        var schedule = CheckInSchedule(policy: Self.policy(), settings: Self.settings(), start: start)
        var now = start
        var fired: [CheckInSchedule.Action] = []
        for _ in 0..<300 {
            // Mostly forward by minutes to hours, sometimes back, sometimes a suspend of days.
            let step: Double
            switch random.next() % 10 {
            case 0: step = -Double(random.next() % 30_000)
            case 1: step = Double(random.next() % 200_000)
            default: step = Double(random.next() % 5_000)
            }
            now = max(start, now.addingTimeInterval(step))
            fired += schedule.due(at: now)
        }
        #expect(Set(fired.map { "\($0)" }).count == fired.count, "nothing twice")
        let last = Self.policy().localDate(of: now)
        let fallbacks = Set(fired.compactMap { if case .fallback(let d) = $0 { d } else { nil } })
        for day in DateSpan(Self.day("2026-03-20"), last.adding(days: -1)) where Self.policy().isWorkday(day) {
            #expect(fallbacks.contains(day), "\(day) skipped")
        }
    }
}

/// SplitMix64: reproducible steps for the random-walk property.
struct SeededRandom {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Reminders stop after three dismissed in a row and resume after a check-in;
/// a reminder that expired (or was never shown) was not ignored.
struct ReminderStreakTests {
    static func day(_ text: String) -> LocalDate { LocalDate(text)! }

    @Test func oncePerDay() {
        var streak = ReminderStreak()
        #expect(streak.silence(on: Self.day("2026-11-18"), checkedIn: { _ in false }) == nil)
        streak.record(Self.day("2026-11-18"))
        #expect(streak.silence(on: Self.day("2026-11-18"), checkedIn: { _ in false }) == .alreadyRemindedToday)
    }

    @Test func threeDismissedInARowSilenceUntilACheckIn() {
        let days = ["2026-11-16", "2026-11-17", "2026-11-18"].map(Self.day)
        let streak = ReminderStreak(reminded: days, dismissed: days)
        #expect(streak.silence(on: Self.day("2026-11-19"), checkedIn: { _ in false }) == .ignoredInARow)
        // A check-in on any of those days (after its reminder) breaks the streak…
        #expect(streak.silence(on: Self.day("2026-11-19"), checkedIn: { $0 == Self.day("2026-11-17") }) == nil)
        // …and so does one on a later day without a reminder.
        let earlier = ["2026-11-10", "2026-11-11", "2026-11-12"].map(Self.day)
        let later = ReminderStreak(reminded: earlier, dismissed: earlier)
        #expect(later.silence(on: Self.day("2026-11-19"), checkedIn: { $0 == Self.day("2026-11-16") }) == nil)
    }

    @Test func remindersThatExpiredOrWereNeverShownAreNotIgnored() {
        let days = ["2026-11-16", "2026-11-17", "2026-11-18"].map(Self.day)
        #expect(ReminderStreak(reminded: days).silence(on: Self.day("2026-11-19"), checkedIn: { _ in false }) == nil)
        // Two dismissed, the third expired (the server's timeout): still reminded.
        var streak = ReminderStreak(reminded: days)
        streak.dismiss(days[0])
        streak.dismiss(days[1])
        #expect(streak.silence(on: Self.day("2026-11-19"), checkedIn: { _ in false }) == nil)
        streak.dismiss(days[2])
        #expect(streak.silence(on: Self.day("2026-11-19"), checkedIn: { _ in false }) == .ignoredInARow)
    }

    @Test func aStateFileWithoutDismissalsReadsAsNoneDismissed() throws {
        let streak = try JSONDecoder().decode(ReminderStreak.self, from: Data(#"{"reminded":["2026-11-17","2026-11-18"]}"#.utf8))
        #expect(streak.reminded == ["2026-11-17", "2026-11-18"].map(Self.day) && streak.dismissed.isEmpty)
        let again = try JSONDecoder().decode(ReminderStreak.self, from: JSONEncoder().encode(streak))
        #expect(again == streak)
    }

    @Test func twoIgnoredStillRemind() {
        let days = ["2026-11-17", "2026-11-18"].map(Self.day)
        let streak = ReminderStreak(reminded: days, dismissed: days)
        #expect(streak.silence(on: Self.day("2026-11-19"), checkedIn: { _ in false }) == nil)
    }

    @Test func onlyTheLastThreeAreKept() {
        var streak = ReminderStreak()
        for text in ["2026-11-12", "2026-11-13", "2026-11-16", "2026-11-17"] { streak.record(Self.day(text)) }
        #expect(streak.reminded == ["2026-11-13", "2026-11-16", "2026-11-17"].map(Self.day))
    }
}

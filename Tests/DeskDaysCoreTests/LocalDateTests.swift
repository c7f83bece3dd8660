import DeskDaysCore
import Foundation
import PropertyBased
import Testing

/// LocalDate arithmetic on the proleptic Gregorian calendar: leap years, centuries, weekdays.
@Suite struct LocalDateTests {
    @Test func knownDayNumbers() {
        #expect(day("1970-01-01").dayNumber == 0)
        #expect(day("1969-12-31").dayNumber == -1)
        #expect(day("2000-03-01").dayNumber == 11_017)
        #expect(day("2026-11-18").dayNumber == 20_775)
        #expect(day("1600-01-01").dayNumber == -135_140)
        #expect(day("0001-01-01").dayNumber == -719_162)
        #expect(day("9999-12-31").dayNumber == 2_932_896)
    }

    @Test func knownWeekdays() {
        #expect(day("1970-01-01").weekday == .thursday)
        #expect(day("1969-12-28").weekday == .sunday)
        #expect(day("2000-01-01").weekday == .saturday)
        #expect(day("1900-01-01").weekday == .monday)
        #expect(day("1600-01-01").weekday == .saturday)
        #expect(day("2026-11-18").weekday == .wednesday)
        #expect(day("2100-03-01").weekday == .monday)
        #expect(day("0001-01-01").weekday == .monday)
    }

    @Test func leapYearsAndCenturies() {
        #expect(LocalDate(year: 2024, month: 2, day: 29) != nil)
        #expect(LocalDate(year: 2023, month: 2, day: 29) == nil)
        #expect(LocalDate(year: 2000, month: 2, day: 29) != nil)
        #expect(LocalDate(year: 1900, month: 2, day: 29) == nil)
        #expect(LocalDate(year: 2100, month: 2, day: 29) == nil)
        #expect(LocalDate(year: 2400, month: 2, day: 29) != nil)
        #expect(day("2024-02-28").adding(days: 1) == day("2024-02-29"))
        #expect(day("2024-02-28").adding(days: 2) == day("2024-03-01"))
        #expect(day("2023-02-28").adding(days: 1) == day("2023-03-01"))
        #expect(day("1900-02-28").adding(days: 1) == day("1900-03-01"))
        #expect(day("2000-02-28").adding(days: 1) == day("2000-02-29"))
        #expect(day("2100-03-01").adding(days: -1) == day("2100-02-28"))
        #expect(day("2024-01-01").days(to: day("2025-01-01")) == 366)
        #expect(day("2100-01-01").days(to: day("2101-01-01")) == 365)
        #expect(day("2000-01-01").days(to: day("2001-01-01")) == 366)
        #expect(day("1900-01-01").days(to: day("2000-01-01")) == 36_524)
        #expect(day("2000-01-01").days(to: day("2400-01-01")) == 146_097)
        #expect(day("2026-12-31").adding(days: 1) == day("2027-01-01"))
        #expect(day("2027-01-01").adding(days: -1) == day("2026-12-31"))
    }

    @Test func invalidDatesAndText() {
        for bad in ["2026-13-01", "2026-00-10", "2026-04-31", "2026-02-29", "2026-01-00", "2026-1-01",
                    "20260101", "2026/01/01", "2026-01-01 ", " 2026-01-01", "+026-01-01", "2026-01-0x", ""] {
            #expect(LocalDate(bad) == nil, "\(bad)")
        }
        #expect(LocalDate(year: 2026, month: 6, day: 31) == nil)
        #expect(LocalDate("0033-01-01")?.year == 33)
        #expect(LocalDate(year: 33, month: 1, day: 1)?.description == "0033-01-01")
        #expect(day("2026-11-18").description == "2026-11-18")
    }

    @Test func monthsAndSpans() {
        #expect(day("2026-11-18").firstOfMonth == day("2026-11-01"))
        #expect(day("2026-11-18").addingMonths(3) == day("2027-02-01"))
        #expect(day("2026-11-18").addingMonths(-11) == day("2025-12-01"))
        #expect(day("2026-01-31").addingMonths(-12) == day("2025-01-01"))
        #expect(day("0001-03-01").addingMonths(-3) == LocalDate(year: 0, month: 12, day: 1))
        #expect(LocalDate.daysIn(month: 2, year: 2028) == 29)
        #expect(LocalDate.daysIn(month: 12, year: 2026) == 31)
        let span = DateSpan(day("2028-02-27"), day("2028-03-01"))
        #expect(Array(span).map(\.description) == ["2028-02-27", "2028-02-28", "2028-02-29", "2028-03-01"])
        #expect(span.count == 4)
        #expect(span.contains(day("2028-02-29")) && !span.contains(day("2028-03-02")))
        #expect(DateSpan(day("2026-01-02"), day("2026-01-01")).count == 0)
        #expect(Array(DateSpan(day("2026-01-02"), day("2026-01-01"))).isEmpty)
    }

    @Test func codableIsTheDateText() throws {
        let data = try JSONEncoder().encode([day("2026-11-18")])
        #expect(String(decoding: data, as: UTF8.self) == #"["2026-11-18"]"#)
        #expect(try JSONDecoder().decode([LocalDate].self, from: data) == [day("2026-11-18")])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([LocalDate].self, from: Data(#"["2026-02-30"]"#.utf8)) }
    }

    /// Every day number from 1600 to 2400 survives the round trip, consecutive numbers are
    /// consecutive dates, and weekdays cycle.
    @Test func dayNumberRoundTripOverEightCenturies() {
        let first = day("1600-01-01").dayNumber
        let last = day("2400-12-31").dayNumber
        var previous = LocalDate(dayNumber: first - 1)
        for number in first...last {
            let date = LocalDate(dayNumber: number)
            if date.dayNumber != number || previous.adding(days: 1) != date
                || date.weekday.rawValue != previous.weekday.rawValue % 7 + 1
                || LocalDate(year: date.year, month: date.month, day: date.day) != date {
                Issue.record("round trip broke at day \(number): \(date)")
                return
            }
            previous = date
        }
        #expect(previous == day("2400-12-31"))
    }

    /// The text form and the day number agree with Foundation's Gregorian calendar on random days
    /// (from 1590: before October 1582 Foundation's "Gregorian" calendar is Julian).
    @Test func agreesWithFoundationCalendar() async {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone("UTC")
        let calendarCopy = calendar
        await propertyCheck(count: 500, input: Gen.int(in: day("1590-01-01").dayNumber...day("2600-12-31").dayNumber)) { number in
            let date = LocalDate(dayNumber: number)
            let instant = Date(timeIntervalSince1970: Double(number) * 86_400 + 43_200)
            let parts = calendarCopy.dateComponents([.year, .month, .day, .weekday], from: instant)
            #expect(date.year == parts.year && date.month == parts.month && date.day == parts.day)
            // Foundation: 1 = Sunday … 7 = Saturday.
            #expect(date.weekday.rawValue % 7 + 1 == parts.weekday)
            #expect(LocalDate(date.description) == date)
        }
    }

    /// Adding days composes and is inverted by `days(to:)`, far across centuries.
    @Test func addingDaysIsAdditive() async {
        await propertyCheck(count: 300, input: Gen.int(in: -1_000_000...1_000_000), Gen.int(in: -100_000...100_000),
                            Gen.int(in: -100_000...100_000)) { base, a, b in
            let date = LocalDate(dayNumber: base)
            #expect(date.adding(days: a).adding(days: b) == date.adding(days: a + b))
            #expect(date.days(to: date.adding(days: a)) == a)
            #expect((date.adding(days: a) < date.adding(days: b)) == (a < b))
        }
    }

    /// A span gives its days in order, each once, `count` of them (none when it ends before it starts).
    @Test func spansIterateTheirDays() async {
        await propertyCheck(count: 300, input: Gen.int(in: -1_000_000...1_000_000), Gen.int(in: -3...400)) { base, length in
            let start = LocalDate(dayNumber: base)
            let days = Array(DateSpan(start, start.adding(days: length)))
            #expect(days.count == max(0, length + 1))
            #expect(days.count == DateSpan(start, start.adding(days: length)).count)
            #expect(days.enumerated().allSatisfy { $0.element == start.adding(days: $0.offset) })
        }
    }
}

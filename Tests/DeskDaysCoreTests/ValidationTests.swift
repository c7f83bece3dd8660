import DeskDaysCore
import Foundation
import Testing

/// The rules every door shares, at their edges, and text from
/// outside printed safely.
@Suite struct ValidationTests {
    @Test func timesAreOnSupportedDatesAndAtMostADayAhead() {
        let now = instant("2026-11-20T17:00:00Z")
        #expect(Validation.timeProblem(now.addingTimeInterval(86_400), now: ClockTime(reading: now)) == nil)
        #expect(Validation.timeProblem(now.addingTimeInterval(86_401), now: ClockTime(reading: now)) != nil)
        #expect(Validation.timeProblem(instant("1990-01-01T00:00:00Z"), now: ClockTime(reading: now)) == nil)
        #expect(Validation.timeProblem(instant("1989-12-31T23:59:59Z"), now: ClockTime(reading: now)) != nil)
        let late = instant("2099-12-31T23:59:59Z")
        #expect(Validation.timeProblem(late, now: ClockTime(reading: late)) == nil)
        #expect(Validation.timeProblem(late.addingTimeInterval(1), now: ClockTime(reading: late)) != nil)
        #expect(Validation.timeProblem(milliseconds: .max, now: ClockTime(reading: now)) != nil)
        #expect(Validation.timeProblem(milliseconds: .min, now: ClockTime(reading: now)) != nil)
    }

    @Test func countsStayFarFromOverflow() {
        #expect(Validation.countProblem(1, from: 1) == nil && Validation.countProblem(0, from: 0) == nil)
        #expect(Validation.countProblem(0, from: 1) != nil && Validation.countProblem(-1, from: 0) != nil)
        #expect(Validation.countProblem(Validation.greatestCount, from: 1) == nil)
        #expect(Validation.countProblem(Validation.greatestCount + 1, from: 1) != nil)
        #expect(Validation.countProblem(.max, from: 0) != nil)
    }

    @Test func aSignLiesWithinTheDayBeforeToTheDayAfterItsDate() {
        let date = day("2026-11-16")
        #expect(Validation.signProblem(instant("2026-11-15T00:00:00Z"), date: date) == nil)
        #expect(Validation.signProblem(instant("2026-11-17T23:59:59Z"), date: date) == nil)
        #expect(Validation.signProblem(instant("2026-11-14T23:59:59Z"), date: date) != nil)
        #expect(Validation.signProblem(instant("2026-11-18T00:00:00Z"), date: date) != nil)
    }

    @Test func printableTextEscapesControlCharacters() {
        #expect(Printable.escaped("laptop") == "laptop")
        #expect(Printable.escaped("bureau café 🏢") == "bureau café 🏢")
        #expect(Printable.escaped("x\nProblems: none\u{1B}[2J") == "x\\nProblems: none\\u{1B}[2J")
        #expect(Printable.escaped("a\tb\rc\u{7}\u{7F}\u{9B}\u{2028}") == "a\\tb\\rc\\u{7}\\u{7F}\\u{9B}\\u{2028}")
    }
}

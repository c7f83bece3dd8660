@testable import DeskDaysStore
@testable import DeskDaysSync
import DeskDaysCore
import Foundation
import Testing

/// A journal line is input like a flag or an import row, checked
/// by the same rules (`Validation`) before anything of it is kept: each
/// case below once bricked a device (exit 2 or 132) or stored what no
/// other door would.
@Suite struct JournalDoorTests {
    static let now = instant("2026-11-20T17:00:00Z")
    static let device = "fedcba9876543210fedcba9876543210"

    /// An arrival with a rule, every field a good line has; `change` edits it.
    static func line(_ change: (inout [String: String]) -> Void = { _ in }) -> JournalEntry? {
        var fields = ["at": "\"2026-11-16T08:00:00.000Z\"", "clock": "\"2026-11-16T08:00:01.000Z\"", "date": "\"2026-11-16\"",
                      "device": "\"\(device)\"", "hlc": "1794816000000", "kind": "\"arrival\"", "n": "0", "name": "\"desk\"",
                      "op": "\"sign\"", "rule": "\"hq\"", "seq": "1", "source": "\"wifi\"", "v": "1"]
        change(&fields)
        let text = "{" + fields.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",") + "}"
        return JournalEntry.decode(ArraySlice(Array(text.utf8)))
    }

    @Test func aGoodLinePasses() throws {
        let entry = try #require(Self.line())
        #expect(entry.problem(now: ClockTime(reading: Self.now)) == nil)
        // A clock up to a day ahead of this device's passes (clocks disagree a little).
        let ahead = try #require(Self.line { $0["hlc"] = "\(HLC.milliseconds(Self.now) + 86_000_000)" })
        #expect(ahead.problem(now: ClockTime(reading: Self.now)) == nil)
    }

    @Test(arguments: [
        ("hlc", "253402300800000", "clock time (hlc)"),             // the year 10000
        ("hlc", "4086000000000", "clock time (hlc)"),               // 2099: 73 years ahead of now
        ("hlc", "1795280500000", "more than a day after"),       // now + a day and a minute and a half
        ("hlc", "315532800000", "clock time (hlc)"),                // 1980
        ("hlc", "-1", "clock time (hlc)"),
        ("n", "9223372036854775807", "clock counter (n)"),
        ("n", "-1", "clock counter (n)"),
        ("seq", "9223372036854775807", "seq"),
        ("seq", "0", "seq"),
        ("date", "\"2150-06-01\"", "2150-06-01 is outside the dates"),
        ("date", "\"0000-02-29\"", "0000-02-29 is outside the dates"),
        ("date", "\"2026-02-30\"", "is not a date"),
        ("rule", "\"\(String(repeating: "a", count: 5_000))\"", "rule name"),
        ("rule", "\"aa:bb cc\"", "rule name"),
        ("source", "\"teleport\"", "does not know"),
        ("kind", "\"hover\"", "does not know"),
        ("op", "\"teleport\"", "does not know"),
        ("clock", "\"2099-01-01T00:00:00.000Z\"", "more than a day after"),
        ("clock", "\"yesterday\"", "not a time"),
    ])
    func aLineWithAValueNoDoorTakesIsRefused(key: String, value: String, reason: String) throws {
        let entry = try #require(Self.line { $0[key] = value })
        let problem = try #require(entry.problem(now: ClockTime(reading: Self.now)), "\(key) = \(value.prefix(40))")
        #expect(problem.contains(reason), "\(problem)")
        #expect(problem.count < 200, "one clause, not the value: \(problem.count)")
    }

    /// A departure seven months after its date (time on site 4,736 hours,
    /// and an office day), and one the day before it (any time zone).
    @Test func aSignOutsideItsDatesWindowIsRefused() throws {
        let late = try #require(Self.line {
            $0["date"] = "\"2026-04-16\""; $0["kind"] = "\"departure\""; $0["at"] = "\"2026-11-16T17:00:00.000Z\""
        })
        #expect(late.problem(now: ClockTime(reading: Self.now))?.contains("not within its date 2026-04-16") == true)
        let early = try #require(Self.line { $0["at"] = "\"2026-11-14T20:00:00.000Z\"" })
        #expect(early.problem(now: ClockTime(reading: Self.now))?.contains("not within its date") == true)
        // The evening before, UTC, is the date's morning east of UTC: it passes.
        let east = try #require(Self.line { $0["at"] = "\"2026-11-15T22:00:00.000Z\"" })
        #expect(east.problem(now: ClockTime(reading: Self.now)) == nil)
    }

    @Test func recordsAndClearsAreCheckedToo() throws {
        let record: (inout [String: String]) -> Void = {
            for key in ["at", "kind", "rule", "source"] { $0[key] = nil }
            $0["op"] = "\"record\""; $0["status"] = "\"office\""; $0["origin"] = "\"manual\""
        }
        #expect(try #require(Self.line(record)).problem(now: ClockTime(reading: Self.now)) == nil)
        for (key, value) in [("status", "\"holiday\""), ("origin", "\"automatic\""), ("origin", "\"hearsay\"")] {
            let entry = try #require(Self.line { record(&$0); $0[key] = value })
            #expect(entry.problem(now: ClockTime(reading: Self.now))?.contains("does not know") == true, "\(key) \(value)")
        }
        let clear: (inout [String: String]) -> Void = {
            for key in ["at", "kind", "rule", "source"] { $0[key] = nil }
            $0["op"] = "\"clear\""; $0["origins"] = "[\"manual\",\"automatic\"]"
        }
        #expect(try #require(Self.line(clear)).problem(now: ClockTime(reading: Self.now)) == nil)
        // A clear clocked in 2099 (which would beat every entry of its date everywhere).
        let future = try #require(Self.line { clear(&$0); $0["hlc"] = "4084732800000"; $0["clock"] = nil })
        #expect(future.problem(now: ClockTime(reading: Self.now))?.contains("hlc") == true)
        let unknown = try #require(Self.line { clear(&$0); $0["origins"] = "[\"manual\",\"everything\"]" })
        #expect(unknown.problem(now: ClockTime(reading: Self.now))?.contains("does not know") == true)
    }

    /// A record's plan mark travels in its line (docs/policy.md "Plans need
    /// you"); a line without it (every earlier version's) is no plan, and a
    /// mark no plan can have is refused at the door.
    @Test func aPlanTravelsWithItsRecord() throws {
        let record: (inout [String: String]) -> Void = {
            for key in ["at", "kind", "rule", "source"] { $0[key] = nil }
            $0["op"] = "\"record\""; $0["status"] = "\"office\""; $0["origin"] = "\"manual\""
        }
        let old = try #require(Self.line(record))
        #expect(old.change == .record(date: day("2026-11-16"), status: .office, origin: .manual, note: nil, ifEmpty: false, plan: nil))
        let planned = try #require(Self.line { record(&$0); $0["plan"] = "\"ahead\"" })
        #expect(planned.problem(now: ClockTime(reading: Self.now)) == nil)
        #expect(planned.change == .record(date: day("2026-11-16"), status: .office, origin: .manual, note: nil, ifEmpty: false, plan: .ahead))
        // Written and read back: the same mark.
        let change = JournalChange.record(date: day("2026-11-16"), status: .remote, origin: .manual, note: nil, ifEmpty: false, plan: .planner)
        let line = JournalEntry(device: Self.device, name: "desk", seq: 1, time: HLC(wall: 1_794_816_000_000, counter: 0), clock: nil, change: change)
        #expect(line.encoded().contains("\"plan\":\"planner\""))
        #expect(JournalEntry.decode(ArraySlice(Array(line.encoded().utf8)))?.change == change)
        for (key, value) in [("plan", "\"someday\""), ("status", "\"vacation\""), ("origin", "\"import\"")] {
            let entry = try #require(Self.line { record(&$0); $0["plan"] = "\"ahead\""; $0[key] = value })
            #expect(entry.problem(now: ClockTime(reading: Self.now))?.contains("does not know") == true, "\(key) \(value)")
        }
    }

    /// The clock's counter past its greatest value moves to the next
    /// millisecond rather than trapping, and stays ahead.
    @Test func theClockNeverTraps() {
        let latest = HLC(wall: 1_794_816_000_000, counter: .max)
        let next = HLC.next(after: latest, physical: 1_794_815_000_000)
        #expect(next > latest)
        #expect(next == HLC(wall: latest.wall + 1, counter: 0))
    }
}

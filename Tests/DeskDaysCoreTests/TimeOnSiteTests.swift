import DeskDaysCore
import Foundation
import PropertyBased
import Testing

/// docs/policy.md "The day's start" and "Time on site": which date an
/// automatic sign belongs to, first_seen/last_seen/hours, and min_hours in
/// the resolution and the report.
@Suite struct TimeOnSiteTests {
    // MARK: - The day's start

    struct StartCase: CustomTestStringConvertible, Sendable {
        var zone: String
        var dayStart: String
        var instant: String
        var date: String
        var testDescription: String { "\(instant) in \(zone), day from \(dayStart): \(date)" }
    }

    static let startCases: [StartCase] = [
        // A night shift's taps: 02:30 belongs to the day before, 04:30 to its own day.
        .init(zone: "Europe/London", dayStart: "04:00", instant: "2026-11-17T02:30:00Z", date: "2026-11-16"),
        .init(zone: "Europe/London", dayStart: "04:00", instant: "2026-11-17T04:30:00Z", date: "2026-11-17"),
        .init(zone: "Europe/London", dayStart: "00:00", instant: "2026-11-17T02:30:00Z", date: "2026-11-17"),
        .init(zone: "Europe/London", dayStart: "04:00", instant: "2026-11-17T03:59:59Z", date: "2026-11-16"),
        .init(zone: "Europe/London", dayStart: "04:00", instant: "2026-11-17T04:00:00Z", date: "2026-11-17"),
        // London springs forward on Sun 2026-03-29 (01:00 GMT → 02:00 BST): wall-clock time decides.
        .init(zone: "Europe/London", dayStart: "04:00", instant: "2026-03-29T00:30:00Z", date: "2026-03-28"),
        .init(zone: "Europe/London", dayStart: "04:00", instant: "2026-03-29T02:30:00Z", date: "2026-03-28"), // 03:30 BST
        .init(zone: "Europe/London", dayStart: "04:00", instant: "2026-03-29T03:00:00Z", date: "2026-03-29"), // 04:00 BST
        // London falls back on Sun 2026-10-25 (02:00 BST → 01:00 GMT): both 01:30s are the night before.
        .init(zone: "Europe/London", dayStart: "04:00", instant: "2026-10-25T00:30:00Z", date: "2026-10-24"), // 01:30 BST
        .init(zone: "Europe/London", dayStart: "04:00", instant: "2026-10-25T01:30:00Z", date: "2026-10-24"), // 01:30 GMT
        .init(zone: "Europe/London", dayStart: "04:00", instant: "2026-10-25T03:59:00Z", date: "2026-10-24"),
        .init(zone: "Europe/London", dayStart: "04:00", instant: "2026-10-25T04:00:00Z", date: "2026-10-25"),
        // New York springs forward on Sun 2026-03-08 (02:00 EST → 03:00 EDT) and falls back on Sun 2026-11-01.
        .init(zone: "America/New_York", dayStart: "04:00", instant: "2026-03-08T06:59:00Z", date: "2026-03-07"), // 01:59 EST
        .init(zone: "America/New_York", dayStart: "04:00", instant: "2026-03-08T07:30:00Z", date: "2026-03-07"), // 03:30 EDT
        .init(zone: "America/New_York", dayStart: "04:00", instant: "2026-03-08T08:00:00Z", date: "2026-03-08"), // 04:00 EDT
        .init(zone: "America/New_York", dayStart: "04:00", instant: "2026-11-01T05:30:00Z", date: "2026-10-31"), // 01:30 EDT
        .init(zone: "America/New_York", dayStart: "04:00", instant: "2026-11-01T06:30:00Z", date: "2026-10-31"), // 01:30 EST
        .init(zone: "America/New_York", dayStart: "04:00", instant: "2026-11-01T08:59:00Z", date: "2026-10-31"), // 03:59 EST
        .init(zone: "America/New_York", dayStart: "04:00", instant: "2026-11-01T09:00:00Z", date: "2026-11-01"), // 04:00 EST
        // A start at 02:30 on the spring-forward night, when 02:30 never happens: 03:00 EDT is past it.
        .init(zone: "America/New_York", dayStart: "02:30", instant: "2026-03-08T07:00:00Z", date: "2026-03-08"), // 03:00 EDT
        .init(zone: "America/New_York", dayStart: "02:30", instant: "2026-03-08T06:59:00Z", date: "2026-03-07"), // 01:59 EST
    ]

    static func minutes(_ text: String) -> Int {
        let parts = text.split(separator: ":").map { Int($0)! }
        return parts[0] * 60 + parts[1]
    }

    @Test(arguments: startCases)
    func aSignBelongsToTheShiftedDate(_ c: StartCase) {
        let policy = Policy.make {
            $0.timeZone = zone(c.zone)
            $0.dayStartMinutes = Self.minutes(c.dayStart)
        }
        #expect(policy.localDate(of: instant(c.instant)) == day(c.date))
    }

    /// `[checkin]` times are read on the shifted day: before the day's start is the next calendar date.
    @Test func checkinTimesFallOnTheShiftedDay() {
        let policy = Policy.make {
            $0.timeZone = zone("Europe/London")
            $0.dayStartMinutes = 4 * 60
        }
        #expect(policy.instant(within: day("2026-11-16"), hour: 20, minute: 0) == instant("2026-11-16T20:00:00Z"))
        #expect(policy.instant(within: day("2026-11-16"), hour: 2, minute: 0) == instant("2026-11-17T02:00:00Z"))
        // Each date ends where the next begins: the night London falls back (02:00 on the 25th)
        // belongs to the 24th, which is 25 hours long; the 25th is 24.
        #expect(policy.start(of: day("2026-10-25")) == instant("2026-10-25T04:00:00Z"))
        #expect(policy.start(of: day("2026-10-25")).timeIntervalSince(policy.start(of: day("2026-10-24"))) == 25 * 3600)
        #expect(policy.start(of: day("2026-10-26")).timeIntervalSince(policy.start(of: day("2026-10-25"))) == 24 * 3600)
    }

    /// Shifting the day's start by zero changes nothing: every instant keeps its calendar date.
    @Test func aZeroDayStartIsTheCalendarDate() async {
        await propertyCheck(count: 400, input: Gen.int(in: 1_600_000_000...1_900_000_000),
                            Gen.int(in: 0..<Self.zones.count)) { seconds, zoneIndex in
            let at = Date(timeIntervalSince1970: TimeInterval(seconds))
            let policy = Policy.make { $0.timeZone = zone(Self.zones[zoneIndex]) }
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = policy.timeZone
            let parts = calendar.dateComponents([.year, .month, .day], from: at)
            #expect(policy.localDate(of: at) == LocalDate(year: parts.year!, month: parts.month!, day: parts.day!)!)
            #expect(policy.start(of: policy.localDate(of: at)) <= at)
        }
    }

    static let zones = ["UTC", "Europe/London", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe"]

    // MARK: - Time on site

    /// London, a Monday to Friday in November (GMT: local time is UTC).
    static let london = Policy.make { $0.timeZone = zone("Europe/London") }

    static func arrival(_ source: Source, _ time: String, policy: Policy = london) -> AutomaticCheckIn {
        let at = instant(time)
        return AutomaticCheckIn(date: policy.localDate(of: at), source: source, rule: nil, at: at)
    }

    static func sign(_ source: Source, _ time: String, _ kind: CheckInEvent.Kind, policy: Policy = london) -> LatestSign {
        let at = instant(time)
        return LatestSign(date: policy.localDate(of: at), source: source, at: at, kind: kind)
    }

    /// One date's presence: first and last seen as local HH:MM, hours, still present.
    struct Seen: Equatable, CustomStringConvertible {
        let first: String?
        let last: String
        let hours: Double?
        let present: Bool
        var description: String {
            let hoursText = hours.map { String($0) } ?? "-"
            return "\(first ?? "-")–\(last) \(hoursText) h" + (present ? " present" : "")
        }
    }

    static func seen(_ checkIns: [AutomaticCheckIn], _ signs: [LatestSign], now: String, policy: Policy = london,
                     on date: String) -> Seen? {
        let days = DayPresence.days(checkIns: checkIns, signs: signs, policy: policy, now: instant(now))
        return days[day(date)].map {
            Seen(first: $0.firstSeen.map { policy.clockTime(of: $0).description }, last: policy.clockTime(of: $0.lastSeen).description,
                 hours: $0.hours, present: $0.present)
        }
    }

    @Test func firstAndLastSeen() {
        let now = "2026-11-20T12:00:00Z"
        // NFC at 08:52, Wi-Fi from 08:55 to 17:40: 8 h 48 min.
        #expect(Self.seen([Self.arrival(.nfc, "2026-11-16T08:52:00Z"), Self.arrival(.wifi, "2026-11-16T08:55:00Z")],
                          [Self.sign(.nfc, "2026-11-16T08:52:00Z", .arrival), Self.sign(.wifi, "2026-11-16T17:40:00Z", .departure)],
                          now: now, on: "2026-11-16") == Seen(first: "08:52", last: "17:40", hours: 8.8, present: false))
        // Taps are instants: the last tap is the last sign, never a presence.
        #expect(Self.seen([Self.arrival(.qr, "2026-11-17T09:00:00Z")], [Self.sign(.qr, "2026-11-17T12:57:00Z", .arrival)],
                          now: now, on: "2026-11-17") == Seen(first: "09:00", last: "12:57", hours: 4.0, present: false))
        // Present at midnight: Wi-Fi arrived at 20:00 and never left: the end of the date.
        #expect(Self.seen([Self.arrival(.wifi, "2026-11-18T20:00:00Z")], [Self.sign(.wifi, "2026-11-18T20:00:00Z", .arrival)],
                          now: now, on: "2026-11-18") == Seen(first: "20:00", last: "00:00", hours: 4.0, present: true))
        // Today in progress: present until now.
        #expect(Self.seen([Self.arrival(.gps, "2026-11-20T09:00:00Z")], [Self.sign(.gps, "2026-11-20T09:00:00Z", .arrival)],
                          now: now, on: "2026-11-20") == Seen(first: "09:00", last: "12:00", hours: 3.0, present: true))
        // A departure counts only after an arrival of its own source that date: one of a source
        // that arrived the day before (or on another device, a phone) adds no time to this date's.
        #expect(Self.seen([Self.arrival(.nfc, "2026-11-19T09:00:00Z")], [Self.sign(.nfc, "2026-11-19T09:00:00Z", .arrival),
                                                                        Self.sign(.wifi, "2026-11-19T10:30:00Z", .departure)],
                          now: now, on: "2026-11-19") == Seen(first: "09:00", last: "09:00", hours: 0.0, present: false))
        // A departure alone is no presence (and no check-in): its last_seen, no first_seen, no hours.
        #expect(Self.seen([], [Self.sign(.wifi, "2026-11-19T10:30:00Z", .departure)], now: now, on: "2026-11-19")
                == Seen(first: nil, last: "10:30", hours: nil, present: false))
        // Rounded half up to one decimal: 3 h 57 min is 3.95 → 4.0; 3 h 56 min 59 s is 3.9.
        #expect(Self.seen([Self.arrival(.qr, "2026-11-17T09:00:00Z")], [Self.sign(.qr, "2026-11-17T12:57:00Z", .arrival)],
                          now: now, on: "2026-11-17")?.hours == 4.0)
        #expect(Self.seen([Self.arrival(.qr, "2026-11-17T09:00:00Z")], [Self.sign(.qr, "2026-11-17T12:56:59Z", .arrival)],
                          now: now, on: "2026-11-17")?.hours == 3.9)
    }

    /// A night shift with the day starting at 04:00: 22:00 to 05:30 is one date, and the end of a date is 04:00.
    @Test func aNightShiftIsOneDate() {
        let policy = Policy.make {
            $0.timeZone = zone("Europe/London")
            $0.dayStartMinutes = 4 * 60
        }
        let checkIns = [Self.arrival(.gps, "2026-11-16T22:00:00Z", policy: policy)]
        #expect(checkIns[0].date == day("2026-11-16"))
        #expect(Self.seen(checkIns, [Self.sign(.gps, "2026-11-17T03:30:00Z", .departure, policy: policy)],
                          now: "2026-11-20T12:00:00Z", policy: policy, on: "2026-11-16")
                == Seen(first: "22:00", last: "03:30", hours: 5.5, present: false))
        #expect(Self.seen(checkIns, [Self.sign(.gps, "2026-11-16T22:00:00Z", .arrival, policy: policy)],
                          now: "2026-11-20T12:00:00Z", policy: policy, on: "2026-11-16")
                == Seen(first: "22:00", last: "04:00", hours: 6.0, present: true))
    }

    // MARK: - min_hours

    struct HoursCase: CustomTestStringConvertible, Sendable {
        var name: String
        var checkIns: [AutomaticCheckIn]
        var signs: [LatestSign]
        var records: [DayRecord] = []
        var now = "2026-11-20T12:00:00Z"
        var date = "2026-11-16"
        var status: AttendanceStatus?
        var origin: Origin?
        var short: Bool
        var testDescription: String { name }
    }

    static let recorded = instant("2026-11-16T20:00:00Z")

    static let hoursCases: [HoursCase] = [
        .init(name: "a short day (3 h 58 min at 4 h) resolves by rules 3–5: no record",
              checkIns: [arrival(.nfc, "2026-11-16T09:00:00Z")], signs: [sign(.nfc, "2026-11-16T12:58:00Z", .arrival)],
              status: nil, origin: nil, short: true),
        .init(name: "a long day is office",
              checkIns: [arrival(.wifi, "2026-11-16T09:00:00Z")], signs: [sign(.wifi, "2026-11-16T13:00:00Z", .departure)],
              status: .office, origin: .automatic, short: false),
        .init(name: "present at midnight: the presence runs to the end of the date",
              checkIns: [arrival(.wifi, "2026-11-16T19:00:00Z")], signs: [sign(.wifi, "2026-11-16T19:00:00Z", .arrival)],
              status: .office, origin: .automatic, short: false),
        .init(name: "today in progress at 11:00 (2 h): not yet office",
              checkIns: [arrival(.gps, "2026-11-20T09:00:00Z")], signs: [sign(.gps, "2026-11-20T09:00:00Z", .arrival)],
              now: "2026-11-20T11:00:00Z", date: "2026-11-20", status: nil, origin: nil, short: true),
        .init(name: "today in progress at 13:00 (4 h): office",
              checkIns: [arrival(.gps, "2026-11-20T09:00:00Z")], signs: [sign(.gps, "2026-11-20T09:00:00Z", .arrival)],
              now: "2026-11-20T13:00:00Z", date: "2026-11-20", status: .office, origin: .automatic, short: false),
        .init(name: "a manual record still wins over a short day",
              checkIns: [arrival(.nfc, "2026-11-16T09:00:00Z")], signs: [],
              records: [DayRecord(date: day("2026-11-16"), status: .office, origin: .manual, recordedAt: recorded)],
              status: .office, origin: .manual, short: true),
        .init(name: "a short day falls back to the fallback record",
              checkIns: [arrival(.nfc, "2026-11-16T09:00:00Z")], signs: [],
              records: [DayRecord(date: day("2026-11-16"), status: .remote, origin: .fallback, recordedAt: recorded)],
              status: .remote, origin: .fallback, short: true),
        .init(name: "a short day with an imported record resolves to the import",
              checkIns: [arrival(.qr, "2026-11-16T09:00:00Z")], signs: [sign(.qr, "2026-11-16T10:00:00Z", .arrival)],
              records: [DayRecord(date: day("2026-11-16"), status: .office, origin: .import, recordedAt: recorded)],
              status: .office, origin: .import, short: true),
    ]

    @Test(arguments: hoursCases)
    func minHoursDecidesRuleTwo(_ c: HoursCase) {
        var policy = Self.london
        policy.minHours = 4
        let engine = PolicyEngine(policy: policy)
        let presence = DayPresence.days(checkIns: c.checkIns, signs: c.signs, policy: policy, now: instant(c.now))
        let short = engine.shortDates(presence)
        #expect(short.contains(day(c.date)) == c.short)
        let resolved = Resolver.resolve(DateSpan(day(c.date), day(c.date)), records: c.records, checkIns: c.checkIns, short: short)
        #expect(resolved[day(c.date)]?.status == c.status)
        #expect(resolved[day(c.date)]?.origin == c.origin)
        // With min_hours off, any arrival is office unless a manual record says otherwise.
        var off = policy
        off.minHours = 0
        #expect(PolicyEngine(policy: off).shortDates(presence).isEmpty)
    }

    /// short_days counts the period's workdays before today with an arrival
    /// and too little time on site, whatever resolved them; today and
    /// weekends are left out; the key is absent when min_hours is off.
    @Test func shortDaysInTheReport() throws {
        var policy = Self.london
        policy.minHours = 4
        policy.period = .week
        let checkIns = [Self.arrival(.nfc, "2026-11-16T09:00:00Z"), Self.arrival(.nfc, "2026-11-17T09:00:00Z"),
                        Self.arrival(.wifi, "2026-11-18T09:00:00Z"), Self.arrival(.nfc, "2026-11-21T09:00:00Z"),
                        Self.arrival(.nfc, "2026-11-20T09:00:00Z")]
        let signs = [Self.sign(.wifi, "2026-11-18T17:00:00Z", .departure)]
        let records = [DayRecord(date: day("2026-11-17"), status: .office, origin: .manual, recordedAt: Self.recorded)]
        let now = instant("2026-11-20T10:00:00Z")
        let presence = DayPresence.days(checkIns: checkIns, signs: signs, policy: policy, now: now)
        let engine = PolicyEngine(policy: policy)
        let report = engine.report(today: day("2026-11-20"), records: records, checkIns: checkIns, presence: presence)
        // Mon short (no status: unrecorded), Tue short but manual office, Wed 8 h office, Thu nothing;
        // Fri is today (still going on), Sat a weekend.
        #expect(report.shortDays == 2)
        #expect(report.office == 2)
        #expect(report.unrecorded == 2)
        let json = String(decoding: try JSONEncoder().encode(report), as: UTF8.self)
        #expect(json.contains("\"short_days\":2"))
        let plain = PolicyEngine(policy: Self.london).report(today: day("2026-11-20"), records: records, checkIns: checkIns)
        #expect(plain.shortDays == nil)
        #expect(!String(decoding: try JSONEncoder().encode(plain), as: UTF8.self).contains("short_days"))
    }

    /// Raising min_hours never adds an office day, over random arrivals and departures.
    @Test func raisingMinHoursNeverAddsOfficeDays() async {
        let base = instant("2026-11-02T00:00:00Z").timeIntervalSince1970
        let sources: [Source] = [.nfc, .qr, .wifi, .gps, .external]
        await propertyCheck(count: 200, input: Gen.int(in: 0...1_000_000), Gen.int(in: 0...12), Gen.int(in: 0...12)) { seed, a, b in
            var generator = SplitMix(seed: UInt64(seed))
            var checkIns: [AutomaticCheckIn] = [], signs: [LatestSign] = []
            let policy = Self.london
            for dayIndex in 0..<14 {
                for source in sources where generator.next() % 3 == 0 {
                    let arrive = base + Double(dayIndex * 86_400) + Double(generator.next() % 86_000)
                    let at = Date(timeIntervalSince1970: arrive)
                    checkIns.append(AutomaticCheckIn(date: policy.localDate(of: at), source: source, rule: nil, at: at))
                    if generator.next() % 2 == 0 {
                        let later = Date(timeIntervalSince1970: arrive + Double(generator.next() % 40_000))
                        guard policy.localDate(of: later) == policy.localDate(of: at) else { continue }
                        signs.append(LatestSign(date: policy.localDate(of: at), source: source, at: later,
                                                kind: generator.next() % 2 == 0 ? .arrival : .departure))
                    }
                }
            }
            let now = Date(timeIntervalSince1970: base + 10 * 86_400 + 43_200)
            func office(_ hours: Int) -> Int {
                var p = policy
                p.minHours = Double(hours)
                let presence = DayPresence.days(checkIns: checkIns, signs: signs, policy: p, now: now)
                let resolved = Resolver.resolve(DateSpan(day("2026-11-02"), day("2026-11-15")), records: [], checkIns: checkIns,
                                                short: PolicyEngine(policy: p).shortDates(presence))
                return resolved.values.filter { $0.status == .office }.count
            }
            #expect(office(max(a, b)) <= office(min(a, b)))
        }
    }
}

/// A small deterministic generator for the property above.
struct SplitMix {
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

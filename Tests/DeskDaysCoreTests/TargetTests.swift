import DeskDaysCore
import Testing

/// docs/policy.md "Targets" and the derived figures, each expected number worked out by hand.
@Suite struct TargetTests {
    // MARK: - percent

    /// A percentage and the days it requires of 21 eligible days.
    struct PercentCase: CustomTestStringConvertible, Sendable {
        var hundredths: Int
        var required: Int
        var testDescription: String { "\(Double(hundredths) / 100) % of 21 → \(required)" }
    }

    /// November 2026 seen from October: 21 eligible days, all pending.
    static let percentCases: [PercentCase] = [
        .init(hundredths: 3333, required: 7),   // 6.9993
        .init(hundredths: 3334, required: 8),   // 7.0014
        .init(hundredths: 3300, required: 7),   // 6.93
        .init(hundredths: 5000, required: 11),  // 10.5
        .init(hundredths: 6000, required: 13),  // 12.6
        .init(hundredths: 10000, required: 21),
        .init(hundredths: 1, required: 1),      // 0.0021
        .init(hundredths: 0, required: 0),
    ]

    @Test(arguments: percentCases)
    func percent(_ c: PercentCase) {
        let policy = Policy.make { $0.period = .month; $0.target = Target(kind: .percent, hundredths: c.hundredths) }
        let report = policy.report(today: "2026-10-15", Book(), .containing(day("2026-11-10")))
        #expect(report.eligible == 21 && report.pending == 21)
        #expect(TargetFigures(report) == TargetFigures(required: c.required, requiredToDate: 0,
                                                       remainingRequired: c.required,
                                                       status: c.required == 0 ? .met : .onTrack))
    }

    @Test func targetValueKeepsTwoDecimals() {
        #expect(Target(kind: .percent, hundredths: 3333).value == 33.33)
        #expect(Target(kind: .daysPerWeek, hundredths: 250).value == 2.5)
        #expect(Target().kind == .percent && Target().hundredths == 6000 && Target().reduce == .cap)
    }

    // MARK: - Derived status

    /// A week's records, seen on `today`, and the target figures they give.
    struct StatusCase: CustomTestStringConvertible, Sendable {
        var name: String
        var today: String
        var office: [String] = []
        var remote: [String] = []
        var vacation: [String] = []
        var expected: TargetFigures
        var testDescription: String { name }
    }

    /// 60 % of the week of Mon 2026-11-16 (5 eligible days): required = 3.
    static let statusCases: [StatusCase] = [
        .init(name: "met once office ≥ required", today: "2026-11-19",
              office: ["2026-11-16", "2026-11-17", "2026-11-18"],
              expected: .init(required: 3, requiredToDate: 2, remainingRequired: 0, status: .met)),
        .init(name: "impossible when remaining > pending", today: "2026-11-19",
              remote: ["2026-11-16", "2026-11-17", "2026-11-18"],
              expected: .init(required: 3, requiredToDate: 2, remainingRequired: 3, status: .impossible)),
        .init(name: "not impossible when remaining == pending", today: "2026-11-19",
              office: ["2026-11-16"], remote: ["2026-11-17", "2026-11-18"],
              expected: .init(required: 3, requiredToDate: 2, remainingRequired: 2, status: .behind)),
        .init(name: "on track exactly on the pace line", today: "2026-11-18",
              office: ["2026-11-16", "2026-11-17"],
              expected: .init(required: 3, requiredToDate: 2, remainingRequired: 1, status: .onTrack)),
        .init(name: "behind below the pace line", today: "2026-11-18",
              office: ["2026-11-16"], remote: ["2026-11-17"],
              expected: .init(required: 3, requiredToDate: 2, remainingRequired: 2, status: .behind)),
        .init(name: "on track before anything elapsed", today: "2026-11-16",
              expected: .init(required: 3, requiredToDate: 0, remainingRequired: 3, status: .onTrack)),
        .init(name: "a finished week short of the target is impossible, not behind", today: "2026-11-21",
              office: ["2026-11-16", "2026-11-17"],
              expected: .init(required: 3, requiredToDate: 3, remainingRequired: 1, status: .impossible)),
        .init(name: "eligible 0: nothing required, met", today: "2026-11-18",
              vacation: ["2026-11-16", "2026-11-17", "2026-11-18", "2026-11-19", "2026-11-20"],
              expected: .init(required: 0, requiredToDate: 0, remainingRequired: 0, status: .met)),
        // Excused days shrink the requirement: 60 % of 3 = 1.8 → 2; pace ceil(2 × 1 / 3) = 1.
        .init(name: "excused days shrink the requirement", today: "2026-11-17",
              office: ["2026-11-16"], vacation: ["2026-11-19", "2026-11-20"],
              expected: .init(required: 2, requiredToDate: 1, remainingRequired: 1, status: .onTrack)),
    ]

    @Test(arguments: statusCases)
    func derivedStatus(_ c: StatusCase) {
        let policy = Policy.make { $0.period = .week; $0.target = Target(kind: .percent, hundredths: 6000) }
        var book = Book()
        for text in c.office { book[text] = .office }
        for text in c.remote { book[text] = .remote }
        for text in c.vacation { book[text] = .vacation }
        #expect(TargetFigures(policy.report(today: c.today, book)) == c.expected)
    }

    // MARK: - days_per_week

    /// December 2026, Mon–Fri, holidays Thu Dec 24 and Fri Dec 25, vacation Tue Dec 29.
    /// Office: Mon Nov 30 (outside P), Dec 1, 2, 7, 8, 9, 21, 22, 28, 30, 31 and Fri Jan 1 (outside P).
    static func decemberPolicy(_ hundredths: Int, _ reduce: Target.Reduce) -> Policy {
        Policy.make {
            $0.period = .month
            $0.holidays = [day("2026-12-24"): "Christmas Eve", day("2026-12-25"): "Christmas Day"]
            $0.target = Target(kind: .daysPerWeek, hundredths: hundredths, reduce: reduce)
        }
    }

    static var decemberBook: Book {
        var book = Book()
        book.set(.office, on: "2026-11-30", "2026-12-01", "2026-12-02", "2026-12-07", "2026-12-08", "2026-12-09",
                 "2026-12-21", "2026-12-22", "2026-12-28", "2026-12-30", "2026-12-31", "2027-01-01")
        book["2026-12-29"] = .vacation
        return book
    }

    /// Seen from January: everything elapsed.
    /// Weeks (W = 5): Nov 30 (Wp 4, E 4), Dec 7 (5, 5), Dec 14 (5, 5), Dec 21 (5, 3), Dec 28 (Wp 4, E 3).
    @Test func daysPerWeekCapAfterTheMonth() {
        let report = Self.decemberPolicy(300, .cap).report(today: "2027-01-15", Self.decemberBook,
                                                           .containing(day("2026-12-15")))
        #expect(DayFigures(report) == DayFigures(workdays: 21, excused: 1, eligible: 20, office: 10, remote: 0,
                                                 unrecorded: 10, elapsed: 20, pending: 0))
        // cap: min(E, ceil(3 × Wp / 5)) = 3, 3, 3, min(3, 3), min(3, ceil(12/5)); office only inside P.
        #expect(weekRows(report) == ["2026-11-30 3 2 false", "2026-12-07 3 3 true", "2026-12-14 3 0 false",
                                     "2026-12-21 3 2 false", "2026-12-28 3 3 true"])
        #expect(TargetFigures(report) == TargetFigures(required: 15, requiredToDate: 15, remainingRequired: 5,
                                                       status: .impossible))
    }

    @Test func daysPerWeekProRataAfterTheMonth() {
        let report = Self.decemberPolicy(300, .proRata).report(today: "2027-01-15", Self.decemberBook,
                                                               .containing(day("2026-12-15")))
        // pro-rata: ceil(3 × E / 5) = ceil(12/5), 3, 3, ceil(9/5), ceil(9/5).
        #expect(weekRows(report) == ["2026-11-30 3 2 false", "2026-12-07 3 3 true", "2026-12-14 3 0 false",
                                     "2026-12-21 2 2 true", "2026-12-28 2 3 true"])
        #expect(TargetFigures(report) == TargetFigures(required: 13, requiredToDate: 13, remainingRequired: 3,
                                                       status: .impossible))
    }

    /// Seen on Wed Dec 16: 11 workdays elapsed (5 office), 9 pending with 5 office plans.
    @Test(arguments: [(Target.Reduce.cap, TargetFigures(required: 15, requiredToDate: 9, remainingRequired: 10,
                                                         status: .impossible)),
                      (Target.Reduce.proRata, TargetFigures(required: 13, requiredToDate: 8, remainingRequired: 8,
                                                            status: .behind))])
    func daysPerWeekMidMonth(reduce: Target.Reduce, expected: TargetFigures) {
        let report = Self.decemberPolicy(300, reduce).report(today: "2026-12-16", Self.decemberBook)
        #expect(DayFigures(report) == DayFigures(workdays: 21, excused: 1, eligible: 20, office: 5, remote: 0,
                                                 unrecorded: 6, elapsed: 11, pending: 9, plannedOffice: 5))
        // Plans are not office days of their weeks yet.
        #expect((report.weeks ?? []).map(\.office) == [2, 3, 0, 0, 0])
        #expect(TargetFigures(report) == expected)
    }

    /// 2.5 days a week: ceil of exact rationals per week.
    @Test(arguments: [(Target.Reduce.cap, [2, 3, 3, 3, 2]), (Target.Reduce.proRata, [2, 3, 3, 2, 2])])
    func daysPerWeekWithDecimals(reduce: Target.Reduce, expected: [Int]) {
        let report = Self.decemberPolicy(250, reduce).report(today: "2027-01-15", Self.decemberBook,
                                                             .containing(day("2026-12-15")))
        #expect((report.weeks ?? []).map(\.required) == expected)
        #expect(report.required == expected.reduce(0, +))
    }

    /// docs/policy.md's Christmas week: 3 workdays (Dec 24, 25 holidays), 3 days a week.
    @Test(arguments: [(Target.Reduce.cap, 3), (Target.Reduce.proRata, 2)])
    func christmasWeek(reduce: Target.Reduce, required: Int) {
        let policy = Policy.make {
            $0.period = .week
            $0.holidays = [day("2026-12-24"): "Christmas Eve", day("2026-12-25"): "Christmas Day"]
            $0.target = Target(kind: .daysPerWeek, hundredths: 300, reduce: reduce)
        }
        let report = policy.report(today: "2026-12-01", Book(), .containing(day("2026-12-21")))
        #expect(report.workdays == 3 && report.eligible == 3)
        #expect(weekRows(report) == ["2026-12-21 \(required) 0 false"])
        #expect(report.required == required)
    }

    /// January 2027 with weeks from Sunday: Dec 27 – Jan 2 has one nominal workday inside P (Fri Jan 1),
    /// Jan 31 – Feb 6 has none (Jan 31 is a Sunday).
    @Test func partialWeeksAtPeriodEdges() {
        let policy = Policy.make {
            $0.period = .month
            $0.weekStart = .sunday
            $0.target = Target(kind: .daysPerWeek, hundredths: 300)
        }
        let report = policy.report(today: "2026-12-01", Book(), .containing(day("2027-01-15")))
        #expect(weekRows(report) == ["2026-12-27 1 0 false", "2027-01-03 3 0 false", "2027-01-10 3 0 false",
                                     "2027-01-17 3 0 false", "2027-01-24 3 0 false", "2027-01-31 0 0 true"])
        #expect(report.required == 13)
        // A holiday on Jan 1 leaves no eligible day in the first week: the cap makes it 0, pro-rata too.
        for reduce in Target.Reduce.allCases {
            var holiday = policy
            holiday.holidays = [day("2027-01-01"): "New Year's Day"]
            holiday.target.reduce = reduce
            let withHoliday = holiday.report(today: "2026-12-01", Book(), .containing(day("2027-01-15")))
            #expect(withHoliday.weeks?.first?.required == 0, "\(reduce)")
            #expect(withHoliday.required == 12, "\(reduce)")
        }
    }

    /// With count_non_workdays a Saturday in the office is one of its week's office days (and a
    /// best week's), but it adds no eligible day E to the week: E counts workdays only.
    @Test func weekendOfficeCountsInItsWeek() {
        var book = Book()
        book.set(.office, on: "2026-11-16", "2026-11-21")
        let perWeek = Policy.make {
            $0.period = .week
            $0.countNonWorkdays = true
            $0.target = Target(kind: .daysPerWeek, hundredths: 200)
        }
        let report = perWeek.report(today: "2026-11-22", book)
        #expect(weekRows(report) == ["2026-11-16 2 2 true"])
        #expect(TargetFigures(report) == TargetFigures(required: 2, requiredToDate: 2, remainingRequired: 0,
                                                       status: .met))
        var best = perWeek
        best.target = Target(kind: .bestWeeks, hundredths: 200, best: 1, window: 1)
        #expect(best.report(today: "2026-11-22", book).status == .met)
        var off = perWeek
        off.countNonWorkdays = false
        #expect(weekRows(off.report(today: "2026-11-22", book)) == ["2026-11-16 2 1 false"])
    }

    /// A workweek with no days: W = 0, so every week asks 0.
    @Test(arguments: Target.Reduce.allCases)
    func emptyWorkweek(reduce: Target.Reduce) {
        let policy = Policy.make {
            $0.period = .month
            $0.workdays = []
            $0.target = Target(kind: .daysPerWeek, hundredths: 300, reduce: reduce)
        }
        let report = policy.report(today: "2026-11-18")
        #expect(report.weeks?.count == 6) // Oct 26 … Nov 30 meet November
        #expect(report.weeks?.allSatisfy { $0.required == 0 && $0.met } == true)
        #expect(TargetFigures(report) == TargetFigures(required: 0, requiredToDate: 0, remainingRequired: 0,
                                                       status: .met))
    }

    // MARK: - days_per_period

    /// A days_per_period value and reduction, and the days it requires.
    struct PeriodTargetCase: CustomTestStringConvertible, Sendable {
        var hundredths: Int
        var reduce: Target.Reduce
        var required: Int
        var testDescription: String { "\(Double(hundredths) / 100) days, \(reduce.rawValue) → \(required)" }
    }

    /// November 2026 seen from October: nominal 21, holiday Thu 26, vacation Fri 27 → eligible 19.
    static let periodTargetCases: [PeriodTargetCase] = [
        .init(hundredths: 800, reduce: .cap, required: 8),
        .init(hundredths: 800, reduce: .proRata, required: 8),      // 7.24
        .init(hundredths: 1200, reduce: .cap, required: 12),
        .init(hundredths: 1200, reduce: .proRata, required: 11),    // 10.86 (nominal counts the holiday)
        .init(hundredths: 2500, reduce: .cap, required: 19),        // min(eligible, n)
        .init(hundredths: 2500, reduce: .proRata, required: 23),    // 22.62
        .init(hundredths: 250, reduce: .cap, required: 3),          // a whole day up from 2.5
        .init(hundredths: 250, reduce: .proRata, required: 3),      // 2.26
        .init(hundredths: 0, reduce: .cap, required: 0),
        .init(hundredths: 0, reduce: .proRata, required: 0),
    ]

    @Test(arguments: periodTargetCases)
    func daysPerPeriod(_ c: PeriodTargetCase) {
        let policy = Policy.make {
            $0.period = .month
            $0.holidays = [day("2026-11-26"): "Thanksgiving"]
            $0.target = Target(kind: .daysPerPeriod, hundredths: c.hundredths, reduce: c.reduce)
        }
        var book = Book()
        book["2026-11-27"] = .vacation
        let report = policy.report(today: "2026-10-15", book, .containing(day("2026-11-10")))
        #expect(DayFigures(report) == DayFigures(workdays: 20, excused: 1, eligible: 19, office: 0, remote: 0,
                                                 unrecorded: 0, elapsed: 0, pending: 19))
        let status: Report.Status = c.required == 0 ? .met : (c.required > 19 ? .impossible : .onTrack)
        #expect(TargetFigures(report) == TargetFigures(required: c.required, requiredToDate: 0,
                                                       remainingRequired: c.required, status: status))
        #expect(report.weeks == nil)
    }

    // MARK: - compliant_weeks

    /// Q4 2026, 2 days a week, today Wed 2026-11-18. Office: Thu Oct 1 (its week belongs to Q3),
    /// weeks of Oct 5 (2), Oct 12 (2), Oct 19 (1), Oct 26 (0), Nov 2 (3), Nov 9 (2), Nov 16 (2 so far).
    static var compliantBook: Book {
        var book = Book()
        book.set(.office, on: "2026-10-01", "2026-10-05", "2026-10-06", "2026-10-12", "2026-10-14", "2026-10-20",
                 "2026-11-02", "2026-11-03", "2026-11-04", "2026-11-12", "2026-11-13", "2026-11-16", "2026-11-17")
        return book
    }

    static func compliantPolicy(weeks k: Int) -> Policy {
        Policy.make {
            $0.period = .quarter
            $0.target = Target(kind: .compliantWeeks, hundredths: 200, weeks: k)
        }
    }

    /// A number of compliant weeks asked for, the status it gives, and the
    /// fewest office days that still make k weeks compliant.
    struct CompliantCase: CustomTestStringConvertible, Sendable {
        var k: Int
        var status: Report.Status
        var remaining: Int
        var testDescription: String { "\(k) compliant weeks → \(status.rawValue), \(remaining) more office days" }
    }

    /// 13 weeks start in Q4 (Oct 5 … Dec 28); 6 are over, 5 are met (4 over + this week), 7 not over.
    /// The 6 weeks still to win each lack 2 office days, which fit in their 5 pending days, so the
    /// remaining office days are 2 per week still needed (never Σ required − office, which surplus
    /// days elsewhere would lower while a needed week stays short).
    static let compliantCases: [CompliantCase] = [
        .init(k: 0, status: .met, remaining: 0),
        .init(k: 5, status: .met, remaining: 0),
        .init(k: 6, status: .onTrack, remaining: 2),   // pace ceil(6 × 6 / 13) = 3
        .init(k: 10, status: .onTrack, remaining: 10), // pace ceil(60 / 13) = 5
        .init(k: 11, status: .behind, remaining: 12),  // pace ceil(66 / 13) = 6; 5 met + 6 still to win = 11
        // This week is already met and is not counted again among the weeks
        // still to win, so 5 + 6 < 12; the remaining days are those of every week that can still be met.
        .init(k: 12, status: .impossible, remaining: 12),
        .init(k: 13, status: .impossible, remaining: 12),
    ]

    @Test(arguments: compliantCases)
    func compliantWeeks(_ c: CompliantCase) {
        let report = Self.compliantPolicy(weeks: c.k).report(today: "2026-11-18", Self.compliantBook)
        #expect(report.weeksMet == 5)
        #expect(report.weeksRequired == c.k)
        #expect(report.weeksRemaining == 7)
        #expect(report.status == c.status)
        #expect(report.officeAll == nil)
        let rows = weekRows(report)
        #expect(rows.count == 13)
        #expect(rows.first == "2026-10-05 2 2 true")
        #expect(rows.last == "2026-12-28 2 0 false")
        #expect(Array(rows[0..<7]) == ["2026-10-05 2 2 true", "2026-10-12 2 2 true", "2026-10-19 2 1 false",
                                       "2026-10-26 2 0 false", "2026-11-02 2 3 true", "2026-11-09 2 2 true",
                                       "2026-11-16 2 2 true"])
        // The day counts are those of the quarter (Oct 1 included); required = Σ required_w = 26.
        #expect(DayFigures(report) == DayFigures(workdays: 66, excused: 0, eligible: 66, office: 13, remote: 0,
                                                 unrecorded: 21, elapsed: 34, pending: 32))
        #expect(report.required == 26)
        #expect(report.remainingRequired == c.remaining)
        #expect(report.requiredToDate == 12) // Σ required_w of the 6 weeks over
        #expect(report.weeksRequiredToDate == (13 + 6 * c.k - 1) / 13) // ceil(k × 6 / 13)
    }

    /// A week is judged over all its days: Mon Dec 28 + Fri Jan 1 make the last Q4 week compliant,
    /// while Q1 2027's weeks start with Jan 4.
    @Test func aWeekBelongsToThePeriodOfItsFirstDay() {
        var book = Self.compliantBook
        book.set(.office, on: "2026-12-28", "2027-01-01")
        let q4 = Self.compliantPolicy(weeks: 6).report(today: "2027-01-10", book, .previous)
        #expect(q4.period.label == "Q4 2026")
        #expect(weekRows(q4).last == "2026-12-28 2 2 true")
        #expect(q4.weeksMet == 6 && q4.weeksRemaining == 0)
        #expect(q4.status == .met)
        let q4Strict = Self.compliantPolicy(weeks: 7).report(today: "2027-01-10", book, .previous)
        #expect(q4Strict.status == .impossible) // every week is over: 6 + 0 < 7
        let q1 = Self.compliantPolicy(weeks: 6).report(today: "2027-01-10", book)
        #expect(q1.period.label == "Q1 2027")
        #expect(q1.weeks?.count == 13)
        #expect(q1.weeks?.first?.start == day("2027-01-04"))
        #expect(q1.weeks?.last?.start == day("2027-03-29"))
        #expect(q1.office == 1) // Jan 1 is a Q1 day, in no Q1 week
        // Today is Sun Jan 10, the last day of the week of Jan 4: a week is over only once its
        // last day is before today, so all 13 weeks remain.
        #expect(q1.weeksMet == 0 && q1.weeksRemaining == 13)
        let monday = Self.compliantPolicy(weeks: 6).report(today: "2027-01-11", book)
        #expect(monday.weeksRemaining == 12)
    }

    /// Holidays and excused days lower a week's required_w (cap: min(E, n)).
    @Test func compliantWeekWithFewEligibleDays() {
        var policy = Self.compliantPolicy(weeks: 1)
        policy.period = .week
        policy.holidays = [day("2026-12-24"): "Christmas Eve", day("2026-12-25"): "Christmas Day"]
        var book = Book()
        book.set(.vacation, on: "2026-12-21", "2026-12-22")
        book["2026-12-23"] = .office
        let report = policy.report(today: "2026-12-27", book)
        #expect(weekRows(report) == ["2026-12-21 1 1 true"])
        #expect(report.status == .met)
    }

    // MARK: - best_weeks

    /// Window of 4 weeks to Sun 2026-11-22, today Wed 11-18 without a record.
    /// Oct 26: 3 office + 2 unrecorded; Nov 2: 1 office + 4 remote; Nov 9: 5 unrecorded;
    /// Nov 16: Mon office, Tue remote, Wed–Fri pending.
    static var bestBook: Book {
        var book = Book()
        book.set(.office, on: "2026-10-26", "2026-10-27", "2026-10-28", "2026-11-02", "2026-11-16")
        book.fill("2026-11-03", "2026-11-06", .remote)
        book["2026-11-17"] = .remote
        return book
    }

    /// A best_weeks rule and the figures it gives over the same window.
    struct BestCase: CustomTestStringConvertible, Sendable {
        var d: Int
        var b: Int
        var office: Int
        var requiredToDate: Int
        var status: Report.Status
        var testDescription: String { "best \(b) of 4 weeks, \(d) days → \(status.rawValue)" }
    }

    /// Office per week 3, 1, 0, 1 (potential with pending: 3, 1, 0, 4); 3 of 4 weeks over.
    static let bestCases: [BestCase] = [
        .init(d: 4, b: 2, office: 4, requiredToDate: 3, status: .met),
        .init(d: 5, b: 2, office: 4, requiredToDate: 4, status: .onTrack),    // pace ceil(15/4)
        .init(d: 6, b: 2, office: 4, requiredToDate: 5, status: .behind),     // best possible 7
        .init(d: 7, b: 2, office: 4, requiredToDate: 6, status: .behind),     // best possible 7 = d
        .init(d: 8, b: 2, office: 4, requiredToDate: 6, status: .impossible), // best possible 7 < 8
        .init(d: 4, b: 1, office: 3, requiredToDate: 3, status: .onTrack),    // best possible 4
        .init(d: 5, b: 1, office: 3, requiredToDate: 4, status: .impossible),
        .init(d: 8, b: 4, office: 5, requiredToDate: 6, status: .behind),     // best possible 8
        .init(d: 0, b: 2, office: 4, requiredToDate: 0, status: .met),
    ]

    @Test(arguments: bestCases)
    func bestWeeks(_ c: BestCase) {
        let policy = Policy.make {
            $0.period = .month
            $0.target = Target(kind: .bestWeeks, hundredths: c.d * 100, best: c.b, window: 4)
        }
        let report = policy.report(today: "2026-11-18", Self.bestBook)
        #expect(report.period.kind == .rolling)
        #expect(report.period.start == day("2026-10-26") && report.period.end == day("2026-11-22"))
        #expect(report.office == c.office)
        #expect(report.officeAll == 5)
        #expect(report.required == c.d)
        #expect(report.remainingRequired == max(0, c.d - c.office))
        #expect(report.requiredToDate == c.requiredToDate)
        #expect(report.status == c.status)
        let share = c.b == 0 ? 0 : (c.d + c.b - 1) / c.b
        #expect(weekRows(report) == ["2026-10-26 \(share) 3 \(3 >= share)", "2026-11-02 \(share) 1 \(1 >= share)",
                                     "2026-11-09 \(share) 0 \(0 >= share)", "2026-11-16 \(share) 1 \(1 >= share)"])
        #expect(report.weeksMet == nil && report.weeksRequired == nil && report.weeksRemaining == nil)
        // The window's day counts use every office day.
        #expect(report.workdays == 20 && report.eligible == 20)
        #expect(report.remote == 5 && report.unrecorded == 7 && report.pending == 3)
        #expect(report.elapsed == 17)
    }

    /// Excused days are no potential office days: vacation Thu–Fri leaves this week at most 2.
    @Test(arguments: [(5, Report.Status.onTrack), (6, .impossible)])
    func bestWeeksExcusedDaysLowerThePotential(d: Int, status: Report.Status) {
        let policy = Policy.make { $0.target = Target(kind: .bestWeeks, hundredths: d * 100, best: 2, window: 4) }
        var book = Self.bestBook
        book.set(.vacation, on: "2026-11-19", "2026-11-20")
        let report = policy.report(today: "2026-11-18", book)
        #expect(report.status == status)
    }

    /// `d` with decimals rounds up to a whole day: 4.5 → 5.
    @Test func bestWeeksDecimalValue() {
        let policy = Policy.make { $0.target = Target(kind: .bestWeeks, hundredths: 450, best: 2, window: 4) }
        let report = policy.report(today: "2026-11-18", Self.bestBook)
        #expect(report.required == 5 && report.remainingRequired == 1 && report.status == .onTrack)
    }
}

import DeskDaysCore
import Testing

/// The planner (docs/policy.md "Planning") against an independent brute
/// force: every subset of the open days, smallest first, judged by the
/// engine's report of the period with every date resolved.
@Suite struct PlannerTests {
    /// A deterministic generator (SplitMix64): the same cases on every run.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// One case: a random policy and history (Scenario), with the dates
    /// from today on mostly recorded (plans, remote, excused) and a few
    /// open, preferred weekdays, avoided dates and whether today is open.
    struct Case: CustomStringConvertible {
        var scenario: Scenario
        var options: PlanOptions
        var todayOpen: Bool

        var policy: Policy { scenario.policy }
        var today: LocalDate { scenario.today }

        static func random(_ rng: inout Seeded, kinds: [Target.Kind]) -> Case {
            var scenario = Scenario.random(using: &rng, kinds: kinds)
            scenario.selector = .current
            // Lower targets half the time, so that many plans are reachable and need new days.
            if Bool.random(using: &rng) { scenario.policy.target.hundredths /= Int.random(in: 2...4, using: &rng) }
            let engine = PolicyEngine(policy: scenario.policy)
            let span = engine.dataSpan(.current, today: scenario.today)
            let openShare = Int.random(in: 10...70, using: &rng)
            for date in span where date >= scenario.today {
                if Int.random(in: 0..<100, using: &rng) < openShare {
                    scenario.overrides[date] = .some(nil)
                } else if scenario.status(date) == nil {
                    scenario.overrides[date] = [.remote, .office, .vacation][Int.random(in: 0..<3, using: &rng)]
                }
            }
            let prefer = Set(Weekday.allCases.filter { _ in Int.random(in: 0..<3, using: &rng) == 0 })
            var avoid: [DateSpan] = []
            for _ in 0..<Int.random(in: 0...2, using: &rng) {
                let start = scenario.today.adding(days: Int.random(in: -3...40, using: &rng))
                avoid.append(DateSpan(start, start.adding(days: Int.random(in: 0...4, using: &rng))))
            }
            return Case(scenario: scenario, options: PlanOptions(prefer: prefer, avoid: avoid),
                        todayOpen: Bool.random(using: &rng))
        }

        func plan() -> Plan {
            PolicyEngine(policy: policy).plan(today: today, todayOpen: todayOpen, options: options,
                                              statusOf: scenario.status)
        }

        /// Open days, found here from the definition: workdays from today
        /// on with no status (today only while open), over every date a
        /// report can look at; usable when not avoided.
        var usable: [LocalDate] {
            PolicyEngine(policy: policy).dataSpan(.current, today: today).filter { date in
                date >= today && (date > today || todayOpen) && policy.isWorkday(date)
                    && scenario.status(date) == nil && !options.avoid.contains { $0.contains(date) }
            }
        }

        /// The engine's report of the period once over, with `office` kept
        /// and every other usable or avoided open day remote.
        func kept(_ office: Set<LocalDate>) -> Report {
            let last = PolicyEngine(policy: policy).dataSpan(.current, today: today).end
            return PolicyEngine(policy: policy).report(.containing(today), today: last.adding(days: 1)) { date in
                if office.contains(date) { return .office }
                if date >= today, scenario.status(date) == nil, policy.isWorkday(date), date > today || todayOpen {
                    return .remote
                }
                return scenario.status(date)
            }
        }

        var description: String {
            "\(scenario) | prefer \(options.prefer.sorted().map(\.key)) avoid \(options.avoid) todayOpen \(todayOpen)"
        }
    }

    /// Calls `body` with each subset of `items` of exactly `size` elements, in
    /// lexicographic order, until it returns false.
    static func subsets(of items: [LocalDate], size: Int, _ body: ([LocalDate]) -> Bool) {
        var indices = Array(0..<size)
        guard size <= items.count else { return }
        while true {
            if !body(indices.map { items[$0] }) { return }
            var i = size - 1
            while i >= 0, indices[i] == items.count - size + i { i -= 1 }
            if i < 0 { return }
            indices[i] += 1
            for j in (i + 1)..<size { indices[j] = indices[j - 1] + 1 }
        }
    }

    static func binomial(_ n: Int, _ k: Int) -> Double {
        guard k >= 0, k <= n else { return 0 }
        var result = 1.0
        for i in 0..<min(k, n - k) { result = result * Double(n - i) / Double(i + 1) }
        return result
    }

    /// The ties' order (docs/policy.md): more preferred days, then a
    /// smaller largest week, then the earlier dates.
    static func better(_ a: [LocalDate], than b: [LocalDate], _ policy: Policy, _ prefer: Set<Weekday>) -> Bool {
        let preferred = { (days: [LocalDate]) in days.filter { prefer.contains($0.weekday) }.count }
        if preferred(a) != preferred(b) { return preferred(a) > preferred(b) }
        let spread = { (days: [LocalDate]) in
            Dictionary(grouping: days) { policy.weekStart(of: $0) }.values.map(\.count).max() ?? 0
        }
        if spread(a) != spread(b) { return spread(a) < spread(b) }
        return a.lexicographicallyPrecedes(b)
    }

    /// Checks one case against the brute force; false when its subsets are too many to walk.
    @discardableResult
    static func check(_ c: Case, budget: Int = 1_500) -> Bool {
        let plan = c.plan()
        let usable = c.usable
        let description = "\(c)"
        // No plan day is avoided, held by another status, or a holiday.
        for date in plan.new {
            #expect(usable.contains(date), "\(date) is not usable in \(description)")
            #expect(c.policy.holidays[date] == nil && c.scenario.status(date) == nil, "\(date) in \(description)")
        }
        #expect(Set(plan.new).count == plan.new.count && plan.days == plan.days.sorted(), "\(description)")
        #expect(Set(plan.existing).isSubset(of: plan.days), "\(description)")
        let withPlans = { (days: [LocalDate]) in Set(days).union(plan.existing) }
        guard plan.reachable else {
            // Out of reach: even every usable day (those after the period too) leaves the
            // period short, and the plan is every usable day of the period (of its weeks for
            // compliant_weeks, which judges whole weeks).
            #expect(c.kept(withPlans(usable)).status != .met, "\(description)")
            let all = c.kept(withPlans(plan.new))
            #expect(Set(plan.new) == Set(usable.filter(plan.scope.contains)), "\(description)")
            #expect(plan.short == (c.policy.target.kind == .compliantWeeks
                ? (all.weeksRequired ?? 0) - (all.weeksMet ?? 0) : all.remainingRequired) && plan.short > 0,
                "\(description)")
            return true
        }
        #expect(plan.short == 0, "\(description)")
        // Keeping it ends the period met.
        #expect(c.kept(withPlans(plan.new)).status == .met, "\(description)")
        let size = plan.new.count
        let walk = (0...size).reduce(0.0) { $0 + binomial(usable.count, $1) }
        guard walk <= Double(budget) else { return false }
        // Minimal: no smaller subset of the usable days is met.
        for smaller in 0..<size {
            subsets(of: usable, size: smaller) { days in
                let met = c.kept(withPlans(days)).status == .met
                #expect(!met, "\(days) (\(smaller) days) is met, the plan has \(size): \(description)")
                return !met
            }
        }
        // The ties: no plan of the same size that is met is better (compliant_weeks
        // picks its weeks by their shortfall first, docs/policy.md).
        if c.policy.target.kind != .compliantWeeks {
            var best: [LocalDate]?
            subsets(of: usable, size: size) { days in
                if c.kept(withPlans(days)).status == .met,
                   best.map({ better(days, than: $0, c.policy, c.options.prefer) }) ?? true { best = days }
                return true
            }
            #expect(best == plan.new, "brute force \(best ?? []) vs plan \(plan.new): \(description)")
        }
        return true
    }

    @Test(arguments: Target.Kind.allCases)
    func fewestDaysThatEndThePeriodMet(_ kind: Target.Kind) {
        var rng = Seeded(state: 55 &* UInt64(Target.Kind.allCases.firstIndex(of: kind)! + 1))
        var walked = 0, outOfReach = 0, withNewDays = 0
        for _ in 0..<1_000 {
            let c = Case.random(&rng, kinds: [kind])
            if Self.check(c) { walked += 1 }
            let plan = c.plan()
            if !plan.reachable { outOfReach += 1 }
            if plan.reachable && !plan.new.isEmpty { withNewDays += 1 }
        }
        // The cases reach every branch: walked in full, out of reach, plans with new days.
        #expect(walked >= 500 && outOfReach >= 20 && withNewDays >= 20, "walked \(walked) out \(outOfReach) new \(withNewDays)")
    }
}

/// docs/policy.md "Planning": the worked examples, and the named cases around them.
@Suite struct PlannerExampleTests {
    func plan(_ policy: Policy, today: String, _ book: Book = Book(), todayOpen: Bool = true,
              prefer: Set<Weekday> = [], avoid: [DateSpan] = []) -> Plan {
        PolicyEngine(policy: policy).plan(today: day(today), todayOpen: todayOpen,
                                          options: PlanOptions(prefer: prefer, avoid: avoid)) { book.statuses[$0] }
    }

    let threeAWeek = Policy.make {
        $0.period = .week
        $0.target = Target(kind: .daysPerWeek, hundredths: 300)
        $0.holidays[day("2026-12-08")] = "Team day off"
    }

    @Test func threeDaysAWeekWithAHolidayAndAnAvoidedFriday() {
        let plan = plan(threeAWeek, today: "2026-12-07", prefer: [.tuesday, .thursday],
                        avoid: [DateSpan(day("2026-12-11"), day("2026-12-11"))])
        #expect(plan.new == [day("2026-12-07"), day("2026-12-09"), day("2026-12-10")])
        #expect(plan.reachable && plan.short == 0 && plan.report.remainingRequired == 3)
    }

    @Test func preferredDaysWinThenTheEarliest() {
        // Four open days, three needed: Thursday (preferred) is in, then the earliest others.
        let plan = plan(threeAWeek, today: "2026-12-07", prefer: [.thursday, .friday])
        #expect(plan.new == [day("2026-12-07"), day("2026-12-10"), day("2026-12-11")])
        // After the fallback time today is no longer open.
        let late = self.plan(threeAWeek, today: "2026-12-07", todayOpen: false)
        #expect(late.new == [day("2026-12-09"), day("2026-12-10"), day("2026-12-11")])
    }

    @Test func existingPlansCountAndOtherStatusesAreNotOpen() {
        var book = Book()
        book.set(.office, on: "2026-12-09")
        book.set(.sick, on: "2026-12-10")
        book.set(.remote, on: "2026-12-11")
        // Wed is planned; Thu sick (E = 3, so required min(3, 3) = 3); Fri a remote plan: only Mon is open.
        let plan = plan(threeAWeek, today: "2026-12-07", book)
        #expect(plan.existing == [day("2026-12-09")])
        #expect(plan.new == [day("2026-12-07")])
        #expect(!plan.reachable && plan.short == 1 && plan.days == [day("2026-12-07"), day("2026-12-09")])
    }

    @Test func metNowAddsNothing() {
        var book = Book()
        book.fill("2026-12-01", "2026-12-04", .office)
        let plan = plan(threeAWeek, today: "2026-12-03", book)
        #expect(plan.report.status == .met && plan.new.isEmpty && plan.reachable)
    }

    @Test func compliantWeeksTakeTheSmallestShortfallsThenTheEarlierWeek() {
        let policy = Policy.make {
            $0.period = .month
            $0.target = Target(kind: .compliantWeeks, hundredths: 200, weeks: 3)
            $0.holidays[day("2026-12-25")] = "Christmas Day"
        }
        var book = Book()
        book.fill("2026-12-21", "2026-12-24", .vacation)
        book.set(.office, on: "2026-12-15")
        let plan = plan(policy, today: "2026-12-07", book)
        #expect(plan.new == [day("2026-12-07"), day("2026-12-08"), day("2026-12-14")])
        #expect(plan.days == [day("2026-12-07"), day("2026-12-08"), day("2026-12-14"), day("2026-12-15")])
        #expect(plan.reachable && plan.short == 0 && plan.byWeeks)
    }

    @Test func outOfReachTakesEveryUsableDayAndSaysByHowMuch() {
        let policy = Policy.make { $0.period = .month; $0.target = Target(kind: .daysPerPeriod, hundredths: 2000) }
        var book = Book()
        book.fill("2026-12-01", "2026-12-18", .remote)
        // Dec 21–31: 9 workdays open, 20 needed: 11 short even with all of them.
        let plan = plan(policy, today: "2026-12-19", book)
        #expect(!plan.reachable && plan.new.count == 9 && plan.short == 11)
    }

    @Test func bestWeeksPlanOnlyThisWeek() {
        let policy = Policy.make { $0.target = Target(kind: .bestWeeks, hundredths: 600, best: 2, window: 4) }
        var book = Book()
        // Window: weeks of Nov 16, 23, 30 and Dec 7 (today Wed Dec 9). Best weeks so far 3 + 1.
        book.fill("2026-11-16", "2026-11-18", .office)
        book.set(.office, on: "2026-11-23")
        let plan = plan(policy, today: "2026-12-09", book)
        // 6 needed: this week must hold 3 (3 + 3); Wed, Thu, Fri.
        #expect(plan.new == [day("2026-12-09"), day("2026-12-10"), day("2026-12-11")])
    }

    @Test func planInputsAreCheckedInOnePlace() {
        #expect(PlanOptions.weekdays(["tue", "Thursday"]) == .success([.tuesday, .thursday]))
        #expect(PlanOptions.weekdays(["tue", "xyz"]) == .failure(.weekday("xyz")))
        #expect(PlanOptions.dates("2026-12-08..2026-12-10") == .success(DateSpan(day("2026-12-08"), day("2026-12-10"))))
        #expect(PlanOptions.dates("2026-12-10..2026-12-08") == .failure(.reversed("2026-12-10..2026-12-08")))
        #expect(PlanOptions.dates("2026-13-01") == .failure(.dates("2026-13-01")))
        #expect(PlanOptions.dates("2026-12-01..2026-12-02..2026-12-03") == .failure(.dates("2026-12-01..2026-12-02..2026-12-03")))
        #expect(PlanOptions.dates("9999-01-01") == .failure(.dates("9999-01-01")))
    }
}

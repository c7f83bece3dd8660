import DeskDaysCore
import PropertyBased
import Testing

// MARK: - Random calendars

/// A random policy, today, selector and calendar of statuses. Statuses come from a hash of
/// the date, so any period (even a year back) is covered without storing them.
struct Scenario: Sendable, CustomStringConvertible {
    var policy: Policy
    var today: LocalDate
    var selector: PeriodSelector
    var seed: UInt64
    /// Dates whose status differs from the hashed one (nil: no record).
    var overrides: [LocalDate: AttendanceStatus?] = [:]

    static let weighted: [AttendanceStatus] = [.office, .office, .office, .office, .remote, .remote, .remote,
                                               .travel, .sick, .vacation, .leave]

    func status(_ date: LocalDate) -> AttendanceStatus? {
        if let override = overrides[date] { return override }
        var x = seed ^ (UInt64(bitPattern: Int64(date.dayNumber)) &* 0x9E37_79B9_7F4A_7C15)
        x = (x ^ (x >> 30)) &* 0xBF58_476D_1CE4_E5B9
        x = (x ^ (x >> 27)) &* 0x94D0_49BB_1331_11EB
        x ^= x >> 31
        let roll = Int(x % 100)
        return roll < 25 ? nil : Self.weighted[Int(x / 100 % UInt64(Self.weighted.count))]
    }

    func report() -> Report {
        PolicyEngine(policy: policy).report(selector, today: today, statusOf: status)
    }

    func expected() -> ReferenceModel.Expected {
        ReferenceModel(policy: policy, today: today, statusOf: status).expected(selector)
    }

    var description: String {
        let t = policy.target
        return "today \(today) \(selector) seed \(seed) | period \(policy.period.rawValue) fy \(policy.fiscalYearStartMonth) "
            + "rolling \(policy.rollingWeeks) week_start \(policy.weekStart.key) "
            + "workdays \(policy.workdays.sorted().map(\.key)) non-workdays \(policy.countNonWorkdays) "
            + "holidays \(policy.holidays.keys.sorted()) counts \(policy.counts.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue)=\($0.value.rawValue)" }) "
            + "| target \(t.kind.rawValue) \(t.hundredths)/100 \(t.reduce.rawValue) weeks \(t.weeks) best \(t.best) "
            + "window \(t.window) | overrides \(overrides)"
    }

    static func random(using rng: inout some RandomNumberGenerator, kinds: [Target.Kind] = Target.Kind.allCases)
        -> Scenario {
        let today = LocalDate(dayNumber: Int.random(in: day("2024-01-01").dayNumber...day("2028-12-31").dayNumber,
                                                    using: &rng))
        var policy = Policy(timeZone: zone("UTC"))
        policy.workdays = Int.random(in: 0..<20, using: &rng) == 0 ? []
            : Set(Weekday.allCases.filter { _ in Int.random(in: 0..<10, using: &rng) < 7 })
        policy.weekStart = Weekday.allCases.randomElement(using: &rng)!
        policy.period = PeriodKind.allCases.randomElement(using: &rng)!
        policy.fiscalYearStartMonth = Bool.random(using: &rng) ? 1 : Int.random(in: 1...12, using: &rng)
        policy.rollingWeeks = Int.random(in: 1...14, using: &rng)
        policy.countNonWorkdays = Bool.random(using: &rng)
        for _ in 0..<Int.random(in: 0...10, using: &rng) {
            policy.holidays[today.adding(days: Int.random(in: -150...150, using: &rng))] = "Holiday"
        }
        for status in [AttendanceStatus.travel, .sick, .vacation, .leave] where Int.random(in: 0..<10, using: &rng) < 4 {
            policy.counts[status] = Treatment.allCases.randomElement(using: &rng)!
        }
        let kind = kinds.randomElement(using: &rng)!
        let reduce = Target.Reduce.allCases.randomElement(using: &rng)!
        switch kind {
        case .percent:
            policy.target = Target(kind: kind, hundredths: Int.random(in: 0...10_000, using: &rng))
        case .daysPerWeek:
            policy.target = Target(kind: kind, hundredths: Int.random(in: 0...700, using: &rng), reduce: reduce)
        case .daysPerPeriod:
            policy.target = Target(kind: kind, hundredths: Int.random(in: 0...3_000, using: &rng), reduce: reduce)
        case .compliantWeeks:
            policy.target = Target(kind: kind, hundredths: Int.random(in: 0...500, using: &rng), reduce: reduce,
                                   weeks: Int.random(in: 0...14, using: &rng))
        case .bestWeeks:
            let window = Int.random(in: 1...13, using: &rng)
            policy.target = Target(kind: kind, hundredths: Int.random(in: 0...3_000, using: &rng),
                                   best: Int.random(in: 0...window + 1, using: &rng), window: window)
        }
        let selector: PeriodSelector
        switch Int.random(in: 0..<10, using: &rng) {
        case 0..<6: selector = .current
        case 6..<8: selector = .previous
        default: selector = .containing(today.adding(days: Int.random(in: -400...400, using: &rng)))
        }
        return Scenario(policy: policy, today: today, selector: selector, seed: UInt64.random(in: 0...UInt64.max, using: &rng))
    }

    static func generator(_ kinds: [Target.Kind] = Target.Kind.allCases) -> Generator<Scenario, Shrink.None<Scenario>> {
        Generator { rng in random(using: &rng, kinds: kinds) }
    }
}

/// Properties over random calendars: the engine against the reference reading of docs/policy.md,
/// the accounting identities, and monotonicity in office days.
@Suite struct PropertyTests {
    /// Every figure agrees with the independent reference model.
    @Test(arguments: Target.Kind.allCases)
    func matchesTheReferenceModel(_ kind: Target.Kind) async {
        await propertyCheck(count: 300, input: Scenario.generator([kind])) { scenario in
            let report = scenario.report()
            #expect(ReferenceModel.observed(report) == scenario.expected(), "\(scenario)")
        }
    }

    @Test(arguments: Target.Kind.allCases)
    func accountingIdentities(_ kind: Target.Kind) async {
        await propertyCheck(count: 300, input: Scenario.generator([kind])) { scenario in
            let r = scenario.report()
            let office = kind == .bestWeeks ? (r.officeAll ?? -1) : r.office
            #expect(office + r.remote + r.unrecorded + r.pending == r.eligible, "\(scenario)")
            #expect(r.elapsed == office + r.remote + r.unrecorded, "\(scenario)")
            if !scenario.policy.countNonWorkdays {
                #expect(r.eligible == r.workdays - r.excused, "\(scenario)")
            } else {
                #expect(r.eligible >= r.workdays - r.excused, "\(scenario)")
            }
            for value in [r.workdays, r.excused, r.eligible, r.office, r.remote, r.unrecorded, r.elapsed, r.pending,
                          r.plannedOffice, r.required, r.requiredToDate, r.remainingRequired] {
                #expect(value >= 0, "\(scenario)")
            }
            #expect(r.excused <= r.workdays && r.plannedOffice <= r.pending, "\(scenario)")
            #expect(r.elapsed <= r.eligible, "\(scenario)")
            #expect(r.requiredToDate <= r.required, "\(scenario)")
            #expect(r.period.span.count >= 7 || r.period.kind == .month || r.period.kind == .week, "\(scenario)")
            if case .current = scenario.selector { #expect(r.period.span.contains(scenario.today), "\(scenario)") }
            if case .containing(let date) = scenario.selector { #expect(r.period.span.contains(date), "\(scenario)") }
            if case .previous = scenario.selector {
                #expect(r.period.end < scenario.today && r.pending == 0 && r.plannedOffice == 0, "\(scenario)")
            }
            if let c = r.complianceToDate { #expect(c >= 0 && (kind == .bestWeeks || c <= 1), "\(scenario)") }
            switch kind {
            case .percent, .daysPerPeriod, .daysPerWeek:
                #expect(r.remainingRequired == max(0, r.required - r.office), "\(scenario)")
                #expect((r.status == .met) == (r.office >= r.required), "\(scenario)")
            case .compliantWeeks:
                let weeks = r.weeks ?? []
                #expect(weeks.allSatisfy { r.period.span.contains($0.start) }, "\(scenario)")
                #expect(r.weeksMet == weeks.filter(\.met).count, "\(scenario)")
                #expect((r.weeksRemaining ?? -1) <= weeks.count, "\(scenario)")
                #expect(r.weeksRequired == scenario.policy.target.weeks, "\(scenario)")
            case .bestWeeks:
                #expect(r.office <= (r.officeAll ?? -1), "\(scenario)")
                #expect(r.weeks?.count == scenario.policy.target.window, "\(scenario)")
                #expect(r.period.span.count == 7 * scenario.policy.target.window, "\(scenario)")
            }
        }
    }

    /// Turning one past remote or unrecorded workday (or today, without a record or remote) into an
    /// office day never makes the status worse (impossible < behind < on_track < met) and never
    /// raises remaining_required. It holds for every kind: the day leaves no denominator (E and
    /// eligible are unchanged, pending at most loses today), a week's office count only grows, so
    /// weeks met, the best-b sum and its potential only grow, and the pace line moves by at most
    /// the day gained. (For compliant_weeks once impossible, remaining_required sums only the
    /// weeks that can still be met, so a day that makes one winnable again raises it.)
    @Test(arguments: Target.Kind.allCases)
    func oneMoreOfficeDayNeverHurts(_ kind: Target.Kind) async {
        await propertyCheck(count: 300, input: Scenario.generator([kind]), Gen.int(in: 0...1_000)) { scenario, pick in
            let before = scenario.report()
            let candidates = before.period.span.filter { date in
                guard scenario.policy.isWorkday(date), date <= scenario.today else { return false }
                guard let status = scenario.status(date) else { return true }
                return scenario.policy.treatment(of: status) == .remote
            }
            guard !candidates.isEmpty else { return }
            var changed = scenario
            let date = candidates[pick % candidates.count]
            changed.overrides[date] = .office
            let after = changed.report()
            let wasPending = date == scenario.today && scenario.status(date) == nil ? 1 : 0
            #expect(after.status.rank >= before.status.rank, "\(date) in \(scenario)")
            // (compliant_weeks, impossible: a week the day makes winnable again adds its shortfall.)
            if !(kind == .compliantWeeks && before.status == .impossible) {
                #expect(after.remainingRequired <= before.remainingRequired, "\(date) in \(scenario)")
            }
            #expect(after.office >= before.office && after.eligible == before.eligible
                && after.pending == before.pending - wasPending, "\(date) in \(scenario)")
        }
    }

    /// `previous`, by date and the period of a date agree: the previous period is the one containing
    /// the day before the current one, and the current one is the one containing today. Calendar
    /// periods partition time, so each of their dates selects them; a rolling window (and
    /// best_weeks' window) "containing" a date is the one ending with that date's week.
    @Test func selectorsAgree() async {
        await propertyCheck(count: 300, input: Scenario.generator()) { scenario in
            let policy = scenario.policy
            let current = policy.reportPeriod(.current, today: scenario.today)
            let previous = policy.reportPeriod(.previous, today: scenario.today)
            #expect(policy.reportPeriod(.containing(scenario.today), today: day("2000-01-01")) == current)
            #expect(previous.end.adding(days: 1) == current.start, "\(scenario)")
            let partitions = current.kind != .rolling
            for date in partitions ? [current.start, current.end, scenario.today] : [current.end, scenario.today] {
                #expect(policy.reportPeriod(.containing(date), today: scenario.today) == current, "\(scenario)")
            }
        }
    }
}

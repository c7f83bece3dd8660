import Foundation

/// A report read back from its JSON form (`report --json`, the D-Bus `Report` method), for a client
/// that shows it in its own language (the app's window): the same figures, and the period's name
/// recovered from its label, so `ReportLocale.periodLabel` and `Render` word it as `status` does.
extension Report: Decodable {
    struct PeriodKeys: Decodable { var kind: String, start: LocalDate, end: LocalDate, label: String }
    struct TargetKeys: Decodable { var kind: String, value: Double, reduce: String?, weeks: Int?, best: Int?, window: Int? }
    struct WeekKeys: Decodable { var start: LocalDate, required: Int, office: Int, met: Bool }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let period = try c.decode(PeriodKeys.self, forKey: .period)
        guard let kind = PeriodKind(rawValue: period.kind) else {
            throw DecodingError.dataCorruptedError(forKey: .period, in: c, debugDescription: "unknown period kind \(period.kind)")
        }
        let target = try c.decode(TargetKeys.self, forKey: .target)
        guard let targetKind = Target.Kind(rawValue: target.kind), target.value.isFinite, target.value >= 0,
              target.value <= Double(Target.mostOfficeDays) else {
            throw DecodingError.dataCorruptedError(forKey: .target, in: c, debugDescription: "unknown target \(target.kind)")
        }
        self.init(today: try c.decode(LocalDate.self, forKey: .today),
                  period: Period(kind: kind, span: DateSpan(period.start, period.end), label: period.label,
                                 name: Period.Name(label: period.label, kind: kind, start: period.start, end: period.end)),
                  target: Target(kind: targetKind, hundredths: Int((target.value * 100).rounded()),
                                 reduce: target.reduce.flatMap(Target.Reduce.init(rawValue:)) ?? .cap,
                                 weeks: target.weeks ?? 0, best: target.best ?? 0, window: target.window ?? 12))
        workdays = try c.decode(Int.self, forKey: .workdays)
        excused = try c.decode(Int.self, forKey: .excused)
        eligible = try c.decode(Int.self, forKey: .eligible)
        office = try c.decode(Int.self, forKey: .office)
        remote = try c.decode(Int.self, forKey: .remote)
        unrecorded = try c.decode(Int.self, forKey: .unrecorded)
        elapsed = try c.decode(Int.self, forKey: .elapsed)
        pending = try c.decode(Int.self, forKey: .pending)
        plannedOffice = try c.decode(Int.self, forKey: .plannedOffice)
        required = try c.decode(Int.self, forKey: .required)
        requiredToDate = try c.decode(Int.self, forKey: .requiredToDate)
        remainingRequired = try c.decode(Int.self, forKey: .remainingRequired)
        let statusText = try c.decode(String.self, forKey: .status)
        guard let status = Status(rawValue: statusText) else {
            throw DecodingError.dataCorruptedError(forKey: .status, in: c, debugDescription: "unknown status \(statusText)")
        }
        self.status = status
        weeks = try c.decodeIfPresent([WeekKeys].self, forKey: .weeks)?
            .map { Week(start: $0.start, required: $0.required, office: $0.office, met: $0.met) }
        weeksMet = try c.decodeIfPresent(Int.self, forKey: .weeksMet)
        weeksRequired = try c.decodeIfPresent(Int.self, forKey: .weeksRequired)
        weeksRemaining = try c.decodeIfPresent(Int.self, forKey: .weeksRemaining)
        weeksRequiredToDate = try c.decodeIfPresent(Int.self, forKey: .weeksRequiredToDate)
        officeAll = try c.decodeIfPresent(Int.self, forKey: .officeAll)
        shortDays = try c.decodeIfPresent(Int.self, forKey: .shortDays)
    }
}

extension Period.Name {
    /// The name `Policy.period` gives a period of `kind` labelled `label` (nil for a label it never writes).
    public init?(label: String, kind: PeriodKind, start: LocalDate, end: LocalDate) {
        let numbers = label.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        let fiscal = label.contains("FY")
        switch kind {
        case .week: self = .weekOf(start)
        case .month: self = .month(start)
        case .quarter:
            guard numbers.count == 2 else { return nil }
            self = .quarter(numbers[0], year: numbers[1], fiscal: fiscal)
        case .year:
            guard numbers.count == 1 else { return nil }
            self = .year(numbers[0], fiscal: fiscal)
        case .rolling:
            guard let weeks = numbers.first else { return nil }
            self = .rolling(weeks: weeks, to: end)
        }
    }
}

import DeskDaysCore

/// The report's JSON (docs/cli.md `report --json`) with the streak keys added:
/// every key of `Report` unchanged, plus `streak_weeks` and `longest_streak_weeks`.
public struct ReportWithStreaks: Encodable, Sendable {
    public var report: Report
    public var streaks: Streaks
    /// `status`: the recorded plans' standing (key `plan`), when there are plans.
    public var plan: PlanStanding?
    /// `report`: the history's milestones (key `milestones`).
    public var milestones: Milestones?

    public init(report: Report, streaks: Streaks, plan: PlanStanding? = nil, milestones: Milestones? = nil) {
        self.report = report
        self.streaks = streaks
        self.plan = plan
        self.milestones = milestones
    }

    /// The two keys this adds to docs/cli.md's report object.
    enum StreakKeys: String, CodingKey {
        case streakWeeks = "streak_weeks", longestStreakWeeks = "longest_streak_weeks", plan, milestones
    }

    public func encode(to encoder: Encoder) throws {
        // A second keyed container on the same encoder adds to the same object.
        try report.encode(to: encoder)
        var container = encoder.container(keyedBy: StreakKeys.self)
        try container.encode(streaks.current, forKey: .streakWeeks)
        try container.encode(streaks.longest, forKey: .longestStreakWeeks)
        try container.encodeIfPresent(plan, forKey: .plan)
        try container.encodeIfPresent(milestones, forKey: .milestones)
    }
}

import Localization
import DeskDaysConfig
import DeskDaysCore
import DeskDaysReports

/// What `config check` warns of (a valid rule that cannot work as written,
/// docs/cli.md "config check"), for `deskdays setup` too.
package enum ConfigurationWarnings {
    package static func list(_ configuration: Configuration) -> [String] {
        var warnings: [String] = []
        let policy = configuration.policy, target = policy.target
        let perWeek = policy.workdays.count
        if target.kind == .daysPerWeek || target.kind == .compliantWeeks, target.value > Double(perWeek) {
            let asked = Render.formatNumber(target.value)
            warnings.append(trn("the rule asks \(asked) office days a week, but a week has \(perWeek) workday ([policy] workdays): no week can be met; lower the value or add workdays",
                                "the rule asks \(asked) office days a week, but a week has \(perWeek) workdays ([policy] workdays): no week can be met; lower the value or add workdays", perWeek))
        }
        let enabled = MethodSection.all.filter { $0.isEnabled(configuration) }
        if policy.minHours > 0, !enabled.isEmpty, enabled.allSatisfy { !$0.source.staysPresent } {
            let names = enabled.map(\.name).joined(separator: ", ")
            warnings.append(tr("min_hours is set, but every enabled method (\(names)) sees arrivals only, never a departure: no automatic day is ever long enough; enable wifi, wired or gps, or remove min_hours"))
        }
        return warnings
    }
}

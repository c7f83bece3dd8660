import DeskDaysCore
import Foundation

/// Human and status-bar renderings of a report. Free in form (docs/cli.md), but
/// every figure comes from the report, never recomputed here.
public enum Render {
    /// One line for `status`: where the user stands and what is needed.
    public static func statusLine(_ report: Report) -> String {
        let head = "\(report.period.label): \(report.standingWords)"
        switch report.target.kind {
        case .compliantWeeks:
            return "\(head) — \(report.weeksMet ?? 0) of \(report.weeksRequired ?? 0) compliant weeks, \(report.weeksRemaining ?? 0) weeks to go."
        case .bestWeeks:
            return "\(head) — best \(report.target.best) weeks hold \(report.office) of \(report.required) office days"
                + (report.remainingRequired > 0 ? ", \(report.remainingRequired) more needed." : ".")
        default:
            if report.isFinished {
                let short = report.remainingRequired == 0 ? "" : ", \(report.remainingRequired) short"
                return "\(head) — \(report.office) of \(report.required) office days\(short)."
            }
            let needed = report.remainingRequired == 0
                ? "nothing more needed"
                : "\(report.remainingRequired) more office day\(report.remainingRequired == 1 ? "" : "s") needed"
            return "\(head) — \(report.office) of \(report.required) office days, \(needed), \(report.pending) workday\(report.pending == 1 ? "" : "s") left."
        }
    }

    public static func text(_ report: Report) -> String {
        var lines = ["\(report.period.label) (\(report.period.start) to \(report.period.end)), today \(report.today)",
                     "Status: \(report.standingWords)"]
        lines.append("Target: \(report.target.words(value: formatNumber(report.target.value)))")
        lines.append("Workdays \(report.workdays), excused \(report.excused), eligible \(report.eligible)")
        lines.append("Office \(report.office), remote \(report.remote), unrecorded \(report.unrecorded) (elapsed \(report.elapsed)), pending \(report.pending), planned office \(report.plannedOffice)")
        if let officeAll = report.officeAll {
            lines.append("Office days in the whole window: \(officeAll)")
        }
        lines.append("Required \(report.required), by now \(report.requiredToDate), \(report.neededWords)")
        if let compliance = report.complianceToDate {
            lines.append(String(format: "Office share so far: %.1f %%", compliance * 100))
        }
        if let met = report.weeksMet, let required = report.weeksRequired, let remaining = report.weeksRemaining {
            lines.append("Compliant weeks \(met) of \(required), \(remaining) not over yet")
        }
        if let weeks = report.weeks {
            lines.append("Weeks:")
            for week in weeks {
                lines.append("  \(week.start)  \(week.office)/\(week.required)  \(week.met ? "met" : "not met")")
            }
        }
        return lines.joined(separator: "\n")
    }

    public static func formatNumber(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    /// Waybar's custom-module JSON (`return-type: json`).
    public static func waybar(_ report: Report) -> String {
        let percentage = report.required == 0 ? 100 : min(100, report.office * 100 / report.required)
        let object: [String: Any] = [
            "text": "\(report.office)/\(report.required)",
            "alt": report.status.rawValue,
            "tooltip": statusLine(report),
            "class": report.status.rawValue,
            "percentage": percentage,
        ]
        let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }

    /// i3blocks: full text, short text, colour.
    public static func i3blocks(_ report: Report) -> String {
        let colour: String
        switch report.status {
        case .met, .onTrack: colour = "#7fbf7f"
        case .behind: colour = "#e5c07b"
        case .impossible: colour = "#e06c75"
        }
        return ["Office \(report.office)/\(report.required) \(report.standingWords)",
                "\(report.office)/\(report.required)", colour].joined(separator: "\n")
    }

    /// The same JSON on one line (keys sorted): for status bars and `--follow`.
    public static func jsonLine<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    public static func json<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}

/// One line about streaks for `report` and `status`.
public func streakLine(_ streaks: Streaks, locale: ReportLocale) -> String {
    "Streak: \(locale.number(streaks.current)) compliant week\(streaks.current == 1 ? "" : "s") in a row "
        + "(longest \(locale.number(streaks.longest)))."
}

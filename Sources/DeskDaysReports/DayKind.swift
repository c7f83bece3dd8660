import Localization
import DeskDaysCore

/// How a date looks in the calendar and the charts: its resolved status
/// seen through the policy, as the engine counts it (docs/policy.md "Counting a period").
public enum DayKind: String, CaseIterable, Sendable {
    case office, remote, excused, unrecorded, planned, pending, holiday, weekend

    /// `date` as `PolicyEngine` counts it (the one classification), with
    /// the skipped non-workdays told apart: the picture never disagrees with the figures under it.
    public static func classify(_ date: LocalDate, status: AttendanceStatus?, policy: Policy,
                                today: LocalDate, plan: Bool = false) -> DayKind {
        switch PolicyEngine(policy: policy).classify(date, status: status, today: today, plan: plan) {
        case .skipped: policy.holidays[date] != nil ? .holiday : .weekend
        case .excused: .excused
        case .office: .office
        case .remote: .remote
        case .unrecorded: .unrecorded
        case .pending(let plannedOffice): plannedOffice ? .planned : .pending
        }
    }

    /// A one-character mark, so the calendar reads without colour (accessibility, NO_COLOR).
    public var symbol: Character {
        switch self {
        case .office: return "●"
        case .remote: return "○"
        case .excused: return "~"
        case .unrecorded: return "?"
        case .planned: return "+"
        case .pending: return "·"
        case .holiday: return "*"
        case .weekend: return " "
        }
    }

    /// The mark as `locale` shows it: where figures are written in
    /// Arabic-Indic (or other non-Latin) digits, pending is `–`, since `·`
    /// reads as their zero (`٠`).
    /// On a terminal in Chinese, Japanese or Korean, ● ○ · (East Asian
    /// width "ambiguous") are drawn two columns wide by CJK terminals and
    /// push the calendar out of line: there they are #, o and - (narrow everywhere).
    public func symbol(_ locale: ReportLocale, terminal: Bool = false) -> Character {
        if terminal, locale.eastAsian {
            switch self {
            case .office: return "#"
            case .remote: return "o"
            case .pending: return "-"
            default: break
            }
        }
        return self == .pending && !locale.latinDigits ? "–" : symbol
    }

    /// The word used in legends and tables, in the user's language.
    public var label: String {
        switch self {
        case .office: return tr("office")
        case .remote: return tr("remote")
        case .excused: return tr("excused")
        case .unrecorded: return tr("unrecorded")
        case .planned: return tr("planned office")
        case .pending: return tr("pending")
        case .holiday: return tr("holiday")
        case .weekend: return tr("non-workday")
        }
    }

    /// The kinds a legend lists, in reading order (non-workdays need no entry).
    public static let legendOrder: [DayKind] = [.office, .remote, .excused, .unrecorded, .planned, .pending, .holiday]
}

extension Source {
    /// The kind of check-in in words: the type only, never the rule or identifier behind it.
    public var typeLabel: String {
        switch self {
        case .nfc: return tr("NFC tag")
        case .qr: return tr("QR code")
        case .wifi: return tr("Wi-Fi")
        case .gps: return tr("GPS")
        case .wired: return tr("wired network")
        case .external: return tr("external event")
        case .manual: return tr("manual entry")
        case .import: return tr("import")
        case .fallback: return tr("end-of-day fallback")
        case .calendar: return tr("calendar event")
        }
    }
}

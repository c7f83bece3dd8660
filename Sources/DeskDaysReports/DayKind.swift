import DeskDaysCore

/// How a date looks in the calendar and the charts: its resolved status
/// seen through the policy, as the engine counts it (docs/policy.md "Counting a period").
public enum DayKind: String, CaseIterable, Sendable {
    case office, remote, excused, unrecorded, planned, pending, holiday, weekend

    /// Classifies `date` exactly as `PolicyEngine` counts it, so the picture
    /// never disagrees with the figures under it.
    public static func classify(_ date: LocalDate, status: AttendanceStatus?, policy: Policy,
                                today: LocalDate) -> DayKind {
        let treatment = status.map(policy.treatment(of:))
        guard policy.isWorkday(date) else {
            // A counted weekend or holiday in the office is an office day once it has happened.
            if policy.countNonWorkdays, treatment == .office, date <= today { return .office }
            return policy.holidays[date] != nil ? .holiday : .weekend
        }
        if treatment == .excused { return .excused }
        if date < today || (date == today && treatment != nil) {
            switch treatment {
            case .office: return .office
            case .remote: return .remote
            case .excused: return .excused
            case .none: return .unrecorded
            }
        }
        return treatment == .office ? .planned : .pending
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

    /// The word used in legends and tables.
    public var label: String {
        switch self {
        case .office: return "office"
        case .remote: return "remote"
        case .excused: return "excused"
        case .unrecorded: return "unrecorded"
        case .planned: return "planned office"
        case .pending: return "pending"
        case .holiday: return "holiday"
        case .weekend: return "non-workday"
        }
    }

    /// The kinds a legend lists, in reading order (non-workdays need no entry).
    public static let legendOrder: [DayKind] = [.office, .remote, .excused, .unrecorded, .planned, .pending, .holiday]
}

extension Source {
    /// The kind of check-in in words: the type only, never the rule or identifier behind it.
    public var typeLabel: String {
        switch self {
        case .nfc: return "NFC tag"
        case .qr: return "QR code"
        case .wifi: return "Wi-Fi"
        case .gps: return "GPS"
        case .wired: return "wired network"
        case .external: return "external event"
        case .manual: return "manual entry"
        case .import: return "import"
        case .fallback: return "end-of-day fallback"
        }
    }
}

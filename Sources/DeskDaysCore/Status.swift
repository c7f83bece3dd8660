/// What a record says about a date (docs/policy.md "Statuses").
public enum AttendanceStatus: String, CaseIterable, Sendable, Codable {
    case office, travel, remote, sick, vacation, leave
}

extension AttendanceStatus {
    /// The words that name each status besides its own name, as badge and
    /// HR calendars write them: one table for `--status`, the configuration,
    /// imports (CSV, JSON, iCalendar titles); the socket, a machine protocol,
    /// takes the names only (docs/cli.md).
    public static let synonyms: [(AttendanceStatus, [String])] = [
        (.office, ["office", "onsite", "inoffice"]),
        (.remote, ["remote", "wfh", "home", "homeoffice", "telework"]),
        (.travel, ["travel", "trip", "business"]),
        (.sick, ["sick", "illness", "ill"]),
        (.vacation, ["vacation", "holiday", "holidays", "pto", "annual", "urlaub"]),
        (.leave, ["leave", "parental", "jury", "bereavement"]),
    ]

    /// The status a word or a short phrase names, whatever its case: the
    /// first status (in the table's order) one of its words names, so
    /// "Office", "WFH" and "Annual leave" (vacation) are understood; nil
    /// when none does.
    public init?(named text: String) {
        let words = text.lowercased().split(whereSeparator: { !$0.isLetter }).map(String.init)
        guard let found = Self.synonyms.first(where: { _, names in words.contains(where: names.contains) }) else { return nil }
        self = found.0
    }
}

/// How a status counts: numerator and denominator, denominator only, or neither.
public enum Treatment: String, CaseIterable, Sendable, Codable {
    case office, remote, excused
}

/// Where a check-in or record came from. Stored as its raw value; never
/// accompanied by the identifier that triggered it (docs/design.md, privacy).
public enum Source: String, CaseIterable, Sendable, Codable, Comparable {
    case nfc, qr, wifi, gps, wired, external, manual, `import`, fallback

    /// The sources that produce automatic check-ins (precedence level 2).
    public static let automatic: [Source] = [.nfc, .qr, .wifi, .gps, .wired, .external]

    public var isAutomatic: Bool { Source.automatic.contains(self) }

    public static func < (lhs: Source, rhs: Source) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// Which precedence level produced a date's resolved status.
public enum Origin: String, CaseIterable, Sendable, Codable {
    case manual, automatic, `import`, fallback
}

/// What `deskdays clear --origin` removes from a date: one kind of entry, or all.
public enum ClearScope: String, CaseIterable, Sendable {
    case manual, automatic, `import`, fallback, all

    /// The origins of the entries it removes.
    public var origins: Set<Origin> {
        self == .all ? Set(Origin.allCases) : [Origin(rawValue: rawValue)!]
    }
}

extension AttendanceStatus {
    /// The status as human text names it, in the user's language ("office",
    /// "Büro"); JSON, the configuration and what the user types keep `rawValue`.
    public var word: String {
        switch self {
        case .office: tr("office")
        case .travel: tr("travel")
        case .remote: tr("remote")
        case .sick: tr("sick")
        case .vacation: tr("vacation")
        case .leave: tr("leave")
        }
    }
}

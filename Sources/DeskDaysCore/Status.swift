/// What a record says about a date (docs/policy.md "Statuses").
public enum AttendanceStatus: String, CaseIterable, Sendable, Codable {
    case office, travel, remote, sick, vacation, leave
}

/// How a status counts: numerator and denominator, denominator only, or neither.
public enum Treatment: String, CaseIterable, Sendable, Codable {
    case office, remote, excused
}

/// Where a check-in or record came from. Stored as its raw value; never
/// accompanied by the identifier that triggered it (docs/design.md, privacy).
public enum Source: String, CaseIterable, Sendable, Codable, Comparable {
    case nfc, qr, wifi, gps, external, manual, `import`, fallback

    /// The sources that produce automatic check-ins (precedence level 2).
    public static let automatic: [Source] = [.nfc, .qr, .wifi, .gps, .external]

    public var isAutomatic: Bool { Source.automatic.contains(self) }

    public static func < (lhs: Source, rhs: Source) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// Which precedence level produced a date's resolved status.
public enum Origin: String, CaseIterable, Sendable, Codable {
    case manual, automatic, `import`, fallback
}

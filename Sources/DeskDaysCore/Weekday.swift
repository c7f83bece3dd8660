/// A day of the week, Monday = 1 … Sunday = 7 (ISO 8601).
public enum Weekday: Int, CaseIterable, Sendable, Comparable, Codable {
    case monday = 1, tuesday, wednesday, thursday, friday, saturday, sunday

    /// The configuration spelling: `mon`, `tue`, …
    public var key: String {
        ["mon", "tue", "wed", "thu", "fri", "sat", "sun"][rawValue - 1]
    }

    /// Parses `mon`, `monday`, `Mon` … (case-insensitive).
    public init?(key: String) {
        let lower = key.lowercased()
        guard let found = Weekday.allCases.first(where: { lower == $0.key || lower == $0.fullName }) else { return nil }
        self = found
    }

    public var fullName: String {
        ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"][rawValue - 1]
    }

    public static func < (lhs: Weekday, rhs: Weekday) -> Bool { lhs.rawValue < rhs.rawValue }
}

import DeskDaysCore
import TOMLKit

/// A check-in method as the configuration knows it: the `[name]` section,
/// how it is read, and whether it is enabled. It is one part of the
/// method's descriptor, `CheckInMethod` (module CheckInMethods), which also
/// holds the adapter, the doctor's checks and the enrolment; it lives here
/// because `deskdays-cli` reads configurations without linking any
/// hardware library (docs/design.md "Check-in methods").
public struct MethodSection: Sendable {
    /// The method; its raw value names the section and the check-in source.
    public let source: Source
    /// Reads the section into the configuration.
    let read: @Sendable (inout TableReader, TOMLTable, inout Configuration) -> Void
    /// Whether the section enables the method, and setting it (`deskdays enable|disable`).
    public let isEnabled: @Sendable (Configuration) -> Bool
    public let setEnabled: @Sendable (inout Configuration, Bool) -> Void
    /// Whether the section holds a rule (a tag, a code, a network, a gateway, a geofence).
    public let hasRules: @Sendable (Configuration) -> Bool
    /// The section as `config show` writes it.
    let table: @Sendable (Configuration) -> TOMLTable

    /// The section's name (`wifi`).
    public var name: String { source.rawValue }

    /// The section of `method` (each in its file under Methods/).
    public static func of(_ method: MethodName) -> MethodSection {
        switch method {
        case .nfc: .nfc
        case .gps: .gps
        case .qr: .qr
        case .wifi: .wifi
        case .wired: .wired
        }
    }

    /// Every method's section, in the order `doctor` and `config show` list them.
    public static let all = MethodName.allCases.map(of)
}

/// A section's keys as `config show` writes them, in order; a nil value is left out.
typealias SectionKeys = KeyValuePairs<String, (any TOMLValueConvertible)?>

extension MethodSection {
    /// The one writer of a method's section: its `keys`, then its rules, each
    /// a table of the array `rules` (`[[nfc.tags]]`), left out when there are none.
    static func table(_ keys: SectionKeys, rules: String? = nil, _ items: [SectionKeys] = []) -> TOMLTable {
        func filled(_ table: TOMLTable, _ keys: SectionKeys) -> TOMLTable {
            for (key, value) in keys { if let value { table[key] = value } }
            return table
        }
        let section = filled(TOMLTable(), keys)
        if let rules, !items.isEmpty {
            let list = TOMLArray()
            for item in items { list.append(filled(TOMLTable(inline: false), item)) }
            section[rules] = list
        }
        return section
    }
}

/// The check-in methods: the one list. Each table maps every case in an
/// exhaustive switch (`MethodSection.of` here, `CheckInMethod.of` with the
/// adapter, doctor checks and enrolment), so a method added here does not
/// build without both.
public enum MethodName: String, CaseIterable, Sendable {
    case nfc, gps, qr, wifi, wired

    /// Its check-ins' source.
    public var source: Source { Source(rawValue: rawValue)! }
}

extension Configuration {
    /// Whether any check-in method is enabled (else only manual check-ins,
    /// reminders and the fallback work).
    public var anyMethodEnabled: Bool {
        MethodSection.all.contains { $0.isEnabled(self) }
    }
}

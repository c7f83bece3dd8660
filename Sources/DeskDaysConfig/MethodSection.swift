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

import DeskDaysCore
import TOMLKit

/// A check-in method as the configuration knows it: the `[name]` section,
/// how it is read, and whether it is enabled. It is one part of the
/// method's descriptor, `CheckInMethod` (module CheckInMethods), whose one
/// table also holds the adapter, the doctor's checks and the enrolment; it
/// lives here because `deskdays` reads configurations without linking any
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

    /// The section's name (`wifi`).
    public var name: String { source.rawValue }

    public static let nfc = MethodSection(source: .nfc, read: { ConfigLoader.readNFC(&$0, $1, &$2.nfc) },
                                          isEnabled: { $0.nfc.enabled }, setEnabled: { $0.nfc.enabled = $1 },
                                          hasRules: { !$0.nfc.tags.isEmpty })
    public static let gps = MethodSection(source: .gps, read: { ConfigLoader.readGPS(&$0, $1, &$2.gps) },
                                          isEnabled: { $0.gps.enabled }, setEnabled: { $0.gps.enabled = $1 },
                                          hasRules: { !$0.gps.geofences.isEmpty })
    public static let qr = MethodSection(source: .qr, read: { ConfigLoader.readQR(&$0, $1, &$2.qr) },
                                         isEnabled: { $0.qr.enabled }, setEnabled: { $0.qr.enabled = $1 },
                                         hasRules: { !$0.qr.payloads.isEmpty || !$0.qr.prefixes.isEmpty })
    public static let wifi = MethodSection(source: .wifi, read: { ConfigLoader.readWiFi(&$0, $1, &$2.wifi) },
                                           isEnabled: { $0.wifi.enabled }, setEnabled: { $0.wifi.enabled = $1 },
                                           hasRules: { !$0.wifi.networks.isEmpty })
    public static let wired = MethodSection(source: .wired, read: { ConfigLoader.readWired(&$0, $1, &$2.wired) },
                                            isEnabled: { $0.wired.enabled }, setEnabled: { $0.wired.enabled = $1 },
                                            hasRules: { !$0.wired.networks.isEmpty })

    /// Every method's section, in the order `doctor` and `config show` list them.
    public static let all: [MethodSection] = [.nfc, .gps, .qr, .wifi, .wired]
}

extension Configuration {
    /// Whether any check-in method is enabled (else only manual check-ins,
    /// reminders and the fallback work).
    public var anyMethodEnabled: Bool {
        MethodSection.all.contains { $0.isEnabled(self) }
    }
}

import Localization
import DeskDaysCore
import TOMLKit

// QR: its settings, how its section is read, and its entry of the
// configuration's method list (docs/design.md "Check-in methods").

/// `[qr]`.
public struct QRSettings: Sendable, Equatable {
    public enum Mode: String, Sendable, CaseIterable { case onDemand = "on-demand", watch }
    public var enabled = false
    public var device = "/dev/video0"
    public var payloads: [String] = []
    public var prefixes: [String] = []
    public var mode: Mode = .onDemand
    public var fps = 4
    public init() {}
}

extension QRSettings {
    /// The section as `config show` writes it (defaults filled in).
    var table: TOMLTable {
        MethodSection.table(["enabled": enabled, "device": device, "mode": mode.rawValue, "fps": fps,
                             "payloads": TOMLArray(payloads), "prefixes": TOMLArray(prefixes)])
    }
}

extension ConfigLoader {
    static func readQR(_ reader: inout TableReader, _ table: TOMLTable, _ settings: inout QRSettings) {
        reader.read(table, path: "qr") { reader, key, value, path in
            switch key {
            case "enabled": if let flag = reader.bool(value, path) { settings.enabled = flag }
            case "device": if let text = reader.string(value, path) { settings.device = text }
            case "payloads": if let list = reader.strings(value, path) { settings.payloads = list }
            case "prefixes": if let list = reader.strings(value, path) { settings.prefixes = list }
            case "mode": reader.choice(value, path) { settings.mode = $0 }
            case "fps": if let n = reader.int(value, path, in: 1...30, unit: tr("frames per second")) { settings.fps = n }
            default: return false
            }
            return true
        }
    }
}

extension MethodSection {
    public static let qr = MethodSection(source: .qr, read: { ConfigLoader.readQR(&$0, $1, &$2.qr) },
                                         isEnabled: { $0.qr.enabled }, setEnabled: { $0.qr.enabled = $1 },
                                         hasRules: { !$0.qr.payloads.isEmpty || !$0.qr.prefixes.isEmpty },
                                         table: { $0.qr.table })
}

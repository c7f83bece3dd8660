import Localization
import DeskDaysCore
import TOMLKit

// NFC: its settings, how its section is read, and its entry of the
// configuration's method list (docs/design.md "Check-in methods").

/// `[nfc]` and `[[nfc.tags]]`.
public struct NFCSettings: Sendable, Equatable {
    public enum Backend: String, Sendable, CaseIterable { case auto, pcsc, libnfc }
    public struct Tag: Sendable, Equatable {
        public var name: String
        /// Upper-case hex without separators.
        public var uid: String?
        /// An NDEF text or URI to match exactly.
        public var ndef: String?
        public init(name: String, uid: String? = nil, ndef: String? = nil) {
            self.name = name
            self.uid = uid
            self.ndef = ndef
        }
    }
    public var enabled = false
    /// A reader with a light and a buzzer (ACS readers over PC/SC) answers
    /// each tap: green and one beep when recorded, red and two beeps when not.
    public var feedback = true
    public var backend: Backend = .auto
    public var connstring: String?
    /// PC/SC: read only the reader whose name contains this text (nil: every
    /// contactless reader; SAM slots are never read).
    public var reader: String?
    public var tags: [Tag] = []
    public init() {}
}

extension NFCSettings {
    /// The section as `config show` writes it (defaults filled in).
    var table: TOMLTable {
        MethodSection.table(["enabled": enabled, "feedback": feedback, "backend": backend.rawValue, "connstring": connstring, "reader": reader],
                            rules: "tags", tags.map { ["name": $0.name, "uid": $0.uid, "ndef": $0.ndef] })
    }
}

extension ConfigLoader {
    static func readNFC(_ reader: inout TableReader, _ table: TOMLTable, _ settings: inout NFCSettings) {
        reader.read(table, path: "nfc") { reader, key, value, path in
            switch key {
            case "enabled": if let flag = reader.bool(value, path) { settings.enabled = flag }
            case "feedback": if let flag = reader.bool(value, path) { settings.feedback = flag }
            case "backend": reader.choice(value, path) { settings.backend = $0 }
            case "connstring": settings.connstring = reader.string(value, path)
            case "reader":
                if let text = reader.string(value, path) {
                    if text.isEmpty { reader.problem(path, tr("reader is empty; give part of the reader's name as `pcsc_scan` shows it, or remove the key")) }
                    settings.reader = text.isEmpty ? nil : text
                }
            case "tags":
                reader.tables(value, path) { reader, table, path in
                    var name: String?, uid: String?, ndef: String?
                    reader.read(table, path: path) { reader, key, value, path in
                        switch key {
                        case "name":
                            name = reader.string(value, path)
                            if let text = name, let problem = RuleName.problem(text) { reader.problem(path, problem) }
                        case "uid":
                            if let text = reader.string(value, path) {
                                let hex = text.uppercased().filter { $0 != ":" && $0 != " " && $0 != "-" }
                                if hex.isEmpty || hex.count % 2 != 0 || !hex.allSatisfy(\.isHexDigit) || hex.count > 20 {
                                    reader.problem(path, tr("uid must be the tag's UID in hex (e.g. \"04A2246A2F6E80\")"))
                                } else {
                                    uid = hex
                                }
                            }
                        case "ndef": ndef = reader.string(value, path)
                        default: return false
                        }
                        return true
                    }
                    guard let name = reader.ruleName(name, path) else { return }
                    if uid == nil, ndef == nil, table["uid"] == nil, table["ndef"] == nil {
                        reader.problem(path, tr("tag \"\(name)\" needs uid or ndef to match"))
                    }
                    settings.tags.append(.init(name: name, uid: uid, ndef: ndef))
                }
            default: return false
            }
            return true
        }
    }
}

extension MethodSection {
    public static let nfc = MethodSection(source: .nfc, read: { ConfigLoader.readNFC(&$0, $1, &$2.nfc) },
                                          isEnabled: { $0.nfc.enabled }, setEnabled: { $0.nfc.enabled = $1 },
                                          hasRules: { !$0.nfc.tags.isEmpty },
                                          table: { $0.nfc.table })
}

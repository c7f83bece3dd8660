import Localization
import DeskDaysCore
import TOMLKit

// Wi-Fi: its settings, how its section is read, and its entry of the
// configuration's method list (docs/design.md "Check-in methods").

/// `[wifi]` and `[[wifi.networks]]`.
public struct WiFiSettings: Sendable, Equatable {
    public struct Network: Sendable, Equatable {
        /// The rule name reported in check-ins (defaults to "wifi-N").
        public var name: String
        public var ssid: String
        public var bssids: [String]
        public var minSignalDBm: Int?
        public init(name: String, ssid: String, bssids: [String] = [], minSignalDBm: Int? = nil) {
            self.name = name
            self.ssid = ssid
            self.bssids = bssids
            self.minSignalDBm = minSignalDBm
        }
    }
    public var enabled = false
    public var networks: [Network] = []
    public init() {}
}

extension WiFiSettings {
    /// The section as `config show` writes it (defaults filled in).
    var table: TOMLTable {
        MethodSection.table(["enabled": enabled], rules: "networks", networks.map {
            ["name": $0.name, "ssid": $0.ssid, "bssids": $0.bssids.isEmpty ? nil : TOMLArray($0.bssids), "min_signal_dbm": $0.minSignalDBm]
        })
    }
}

extension ConfigLoader {
    static func readWiFi(_ reader: inout TableReader, _ table: TOMLTable, _ settings: inout WiFiSettings) {
        var networks: [WiFiSettings.Network] = []
        readNetworks(&reader, table, section: "wifi", enabled: &settings.enabled) { reader, table, path, defaultName in
            var name: String?, ssid: String?, bssids: [String] = [], minimum: Int?
            reader.read(table, path: path) { reader, key, value, path in
                switch key {
                case "name": name = ruleName(&reader, value, path)
                case "ssid":
                    ssid = reader.string(value, path)
                    if let text = ssid, text.utf8.isEmpty || text.utf8.count > 32 {
                        reader.problem(path, tr("ssid must be 1 to 32 bytes long"))
                    }
                case "bssids":
                    bssids = macs(&reader, value, path) { tr("\"\($0)\" is not a BSSID; write it as aa:bb:cc:dd:ee:ff") } ?? []
                case "min_signal_dbm": minimum = reader.int(value, path, in: -120...0, unit: tr("dBm"))
                default: return false
                }
                return true
            }
            guard let ssid else {
                if table["ssid"] == nil { reader.problem(path, tr("a network needs ssid")) }
                return
            }
            networks.append(.init(name: name ?? defaultName, ssid: ssid, bssids: bssids, minSignalDBm: minimum))
        }
        settings.networks += networks
    }
}

extension MethodSection {
    public static let wifi = MethodSection(source: .wifi, read: { ConfigLoader.readWiFi(&$0, $1, &$2.wifi) },
                                           isEnabled: { $0.wifi.enabled }, setEnabled: { $0.wifi.enabled = $1 },
                                           hasRules: { !$0.wifi.networks.isEmpty },
                                           table: { $0.wifi.table })
}

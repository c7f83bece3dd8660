import Localization
import DeskDaysCore
import TOMLKit

// Wired: its settings, how its section is read, and its entry of the
// configuration's method list (docs/design.md "Check-in methods").

/// `[wired]` and `[[wired.networks]]`: the office recognised by the
/// hardware address of the default gateway (docs/cli.md).
public struct WiredSettings: Sendable, Equatable {
    public struct Network: Sendable, Equatable {
        /// The rule name reported in check-ins (defaults to "wired-N").
        public var name: String
        /// The gateway's MAC addresses (lower case, `aa:bb:cc:dd:ee:ff`): one
        /// router, or several (IPv4 and IPv6 routers, a redundant pair).
        public var gatewayMACs: [String]
        public init(name: String, gatewayMACs: [String]) {
            self.name = name
            self.gatewayMACs = gatewayMACs
        }
    }
    public var enabled = false
    public var networks: [Network] = []
    public init() {}
}

extension WiredSettings {
    /// The section as `config show` writes it (defaults filled in).
    var table: TOMLTable {
        MethodSection.table(["enabled": enabled], rules: "networks", networks.map { ["name": $0.name, "gateway_mac": TOMLArray($0.gatewayMACs)] })
    }
}

extension ConfigLoader {
    static func readWired(_ reader: inout TableReader, _ table: TOMLTable, _ settings: inout WiredSettings) {
        var networks: [WiredSettings.Network] = []
        readNetworks(&reader, table, section: "wired", enabled: &settings.enabled) { reader, table, path, defaultName in
            var name: String?, macs: [String]?
            reader.read(table, path: path) { reader, key, value, path in
                switch key {
                case "name": name = ruleName(&reader, value, path)
                case "gateway_mac":
                    if value.array?.count == 0 {
                        reader.problem(path, tr("gateway_mac is empty; list the gateway's address, e.g. [\"aa:bb:cc:dd:ee:ff\"] (`deskdays enroll wired` learns it)"))
                    }
                    macs = Self.macs(&reader, value, path) { tr("gateway_mac \"\($0)\" is not a MAC address; write it as aa:bb:cc:dd:ee:ff") } ?? []
                default: return false
                }
                return true
            }
            guard let macs else {
                reader.problem(path, tr("a wired network needs gateway_mac (the default gateway's address; `deskdays enroll wired` learns it)"))
                return
            }
            // Every address wrong: reported above; a rule that can never match is not kept.
            guard !macs.isEmpty else { return }
            networks.append(.init(name: name ?? defaultName, gatewayMACs: macs))
        }
        settings.networks += networks
    }
}

extension MethodSection {
    public static let wired = MethodSection(source: .wired, read: { ConfigLoader.readWired(&$0, $1, &$2.wired) },
                                            isEnabled: { $0.wired.enabled }, setEnabled: { $0.wired.enabled = $1 },
                                            hasRules: { !$0.wired.networks.isEmpty },
                                            table: { $0.wired.table })
}

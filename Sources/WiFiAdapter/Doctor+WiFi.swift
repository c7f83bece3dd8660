import Localization
import DeskDaysConfig
import DeskDaysCore
import DeskDaysDoctor

/// `deskdays doctor`'s checks of this method (docs/design.md "Check-in methods").
extension Doctor {
    public func wifi(_ settings: WiFiSettings) -> Section {
        guard settings.enabled else { return Section(name: "wifi", summary: tr("disabled"), findings: []) }
        var findings: [Finding] = []
        if settings.networks.isEmpty {
            findings.append(Finding(.problem, tr("no [[wifi.networks]]: no network would match"), fix: tr("connect to the office network and run `deskdays enroll wifi`")))
        }
        for network in settings.networks where network.bssids.isEmpty {
            findings.append(Finding(.warning, tr("the office network \"\(network.name)\" has no BSSID pin: the same network name at home (or a corporate remote access point) would count"),
                                    fix: tr("at the office, `deskdays enroll wifi --pin --name \(network.name)` and remove the old block")))
        }
        let interfaces = system.wirelessInterfaces()
        if interfaces.isEmpty {
            findings.append(Finding(.problem, tr("no wireless interface (nl80211) on this machine"),
                                    fix: tr("check `iw dev`; the Wi-Fi card or its driver is missing")))
        } else {
            let list = interfaces.joined(separator: ", ")
            findings.append(Finding(.ok, trn("wireless interface: \(list)", "wireless interfaces: \(list)", interfaces.count)))
        }
        return Section(name: "wifi", summary: tr("enabled"), findings: findings)
    }
}

import Localization
import DeskDaysConfig
import DeskDaysCore
import DeskDaysDoctor
import NL80211
import Wired

/// `deskdays doctor`'s checks of this method (docs/design.md "Check-in methods").
extension Doctor {
    /// Whether the gateway the machine routes through now is one of the
    /// `[[wired.networks]]`, named by the rule only: the MAC is never printed.
    public func wired(_ settings: WiredSettings, gateways: [Gateway]?) -> Section {
        guard settings.enabled else { return Section(name: "wired", summary: tr("disabled"), findings: []) }
        var findings: [Finding] = []
        if settings.networks.isEmpty {
            findings.append(Finding(.problem, tr("no [[wired.networks]]: no gateway would match"),
                                    fix: tr("docked at the office, run `deskdays enroll wired`")))
        } else {
            findings.append(Finding(.ok, trn("\(settings.networks.count) wired network", "\(settings.networks.count) wired networks", settings.networks.count)))
        }
        guard let gateways else {
            findings.append(Finding(.problem, tr("the routing table cannot be read over rtnetlink"),
                                    fix: tr("run doctor outside any sandbox that refuses AF_NETLINK; the agent needs it too")))
            return Section(name: "wired", summary: tr("enabled"), findings: findings)
        }
        if gateways.isEmpty {
            findings.append(Finding(.note, tr("no default gateway now (not docked, or the link is down): nothing to match until there is one")))
        }
        let matcher = GatewayMatcher(settings)
        for gateway in gateways {
            let name = gateway.interfaceName, family = gateway.family
            if gateway.mac == nil {
                findings.append(Finding(.note, tr("the default gateway on \(name) (\(family)) is not resolved yet: the kernel learns its address when the machine first talks to it, and the agent waits for that")))
            } else if let rule = matcher.rule(for: gateway) {
                findings.append(Finding(.ok, tr("the default gateway on \(name) (\(family)) is the office network \"\(rule)\"")))
            } else {
                findings.append(Finding(.note, tr("the default gateway on \(name) (\(family)) is none of the configured networks (not at the office now?)"),

                                        fix: tr("docked at the office, `deskdays enroll wired` adds its gateway")))
            }
        }
        return Section(name: "wired", summary: tr("enabled"), findings: findings)
    }
}

import Localization
import ArgumentParser
import CommandSupport
import DeskDaysConfig
import DeskDaysCore
import WiredAdapter
import Foundation
import Wired

/// `deskdays enroll wired`: add the network this machine is docked on now,
/// recognised by its default gateway's MAC, as a `[[wired.networks]]` rule.
/// The MAC goes into the user's configuration and nowhere else: it is not
/// printed, logged or stored.
package struct EnrollWired: AsyncParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "wired",
        abstract: tr("Add the network you are docked on (its default gateway) as a check-in rule."),
        discussion: tr("""
        Reads the default routes (IPv4 and IPv6) and the gateways' neighbour entries over \
        rtnetlink and appends a [[wired.networks]] block listing the gateways' MAC addresses. \
        Run it docked at the office. When both a wired and a wireless interface have a default \
        gateway, the wired one is taken; --interface chooses another.
        """)
    )

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp(tr("Name of the rule, reported in check-ins.")))
    var name = "office"

    @Option(help: ArgumentHelp(tr("Interface whose gateway to learn when several have one (e.g. enp0s31f6).")))
    var interface: String?

    package func validate() throws {
        try checkRuleName(name)
    }
}

/// The enrolment's work.
extension EnrollWired {
    package func run() async throws {
        let configuration = try ConfigLoader.load(path: global.configPath)
        let all: [Gateway]
        do {
            all = try WiredGateways.current()
        } catch {
            throw CLIError(tr("cannot read the routing table over rtnetlink (\(error)); run `deskdays doctor`."))
        }
        let gateways = try chosen(all)
        let interfaceName = gateways[0].interfaceName
        var macs: [String] = []
        for mac in gateways.compactMap(\.mac) where !macs.contains(mac.description) { macs.append(mac.description) }
        guard !macs.isEmpty else {
            throw CLIError(tr("the gateway on \(interfaceName) is not resolved yet (the kernel learns its address when the machine first talks to it); open any web page, then try again."))
        }
        let matcher = GatewayMatcher(configuration.wired)
        if let rule = gateways.lazy.compactMap({ matcher.rule(for: $0) }).first {
            print(tr("The gateway on \(interfaceName) is already the wired network \"\(rule)\" in \(global.configPath); nothing was added."))
            Enrollment.remindIfOff(configuration.wired.enabled, method: "Wired", section: "wired")
            return
        }
        let resolved = Self.families(gateways.filter { $0.mac != nil })
        print(trn("Docked on \(interfaceName): the \(resolved) gateway, \(macs.count) hardware address.",
                  "Docked on \(interfaceName): the \(resolved) gateway, \(macs.count) hardware addresses.", macs.count))
        let waiting = gateways.filter { $0.mac == nil }
        if !waiting.isEmpty {
            // Usually the same router; if not, its address can be added to the block by hand once known.
            print(tr("The \(Self.families(waiting)) gateway is not resolved yet, so it is not in the rule."))
        }
        let block = "[[wired.networks]]\nname = \(ConfigEditor.quoted(name))\ngateway_mac = [\(macs.map(ConfigEditor.quoted).joined(separator: ", "))]\n"
        try Enrollment.append(block, rule: tr("wired network \(ConfigEditor.quoted(name))"), to: global.configPath)
        Enrollment.remindIfOff(configuration.wired.enabled, method: "Wired", section: "wired")
    }

    /// "IPv4", "IPv6" or "IPv4 and IPv6".
    static func families(_ gateways: [Gateway]) -> String {
        let families = Set(gateways.map(\.family))
        return families.count > 1 ? tr("IPv4 and IPv6") : families.first.map(\.description) ?? ""
    }

    /// The gateways of one interface: the one asked for, else the only one,
    /// else the only one that is not wireless (a docked laptop with Wi-Fi on).
    func chosen(_ gateways: [Gateway]) throws -> [Gateway] {
        if let interface {
            let mine = gateways.filter { $0.interfaceName == interface }
            guard !mine.isEmpty else {
                throw CLIError(tr("\(interface) has no default gateway now (not up, or no route through it); plug it in or choose another with --interface."))
            }
            return mine
        }
        guard !gateways.isEmpty else {
            throw CLIError(tr("there is no default gateway now (not docked, or the link is down); dock at the office, then try again."))
        }
        var names: [String] = []
        for gateway in gateways where !names.contains(gateway.interfaceName) { names.append(gateway.interfaceName) }
        let wired = names.filter { !FileManager.default.fileExists(atPath: "/sys/class/net/\($0)/wireless") }
        guard let only = names.count == 1 ? names.first : (wired.count == 1 ? wired.first : nil) else {
            throw CLIError(tr("several interfaces have a default gateway (\(names.joined(separator: ", "))); choose one with --interface."))

        }
        return gateways.filter { $0.interfaceName == only }
    }
}

import ArgumentParser
import DeskDaysCLI
import DeskDaysConfig
import DeskDaysCore
import Foundation
import Wired
import WiredAdapter

/// `deskdays enroll wired`: add the network this machine is docked on now,
/// recognised by its default gateway's MAC, as a `[[wired.networks]]` rule.
/// The MAC goes into the user's configuration and nowhere else: it is not
/// printed, logged or stored.
struct EnrollWired: AsyncParsableCommand {
    init() {}

    static let configuration = CommandConfiguration(
        commandName: "wired",
        abstract: Hardware.abstract("enroll", "wired"),
        discussion: """
        Reads the default routes (IPv4 and IPv6) and the gateways' neighbour entries over \
        rtnetlink and appends a [[wired.networks]] block listing the gateways' MAC addresses. \
        Run it docked at the office. When both a wired and a wireless interface have a default \
        gateway, the wired one is taken; --interface chooses another.
        """
    )

    @OptionGroup var global: GlobalOptions

    @Option(help: "Name of the rule, reported in check-ins.")
    var name = "office"

    @Option(help: "Interface whose gateway to learn when several have one (e.g. enp0s31f6).")
    var interface: String?

    func validate() throws {
        if let problem = RuleName.problem(name) {
            throw ValidationError("--name \(name): \(problem).")
        }
    }
}

/// The enrolment's work.
extension EnrollWired {
    func run() async throws {
        let configuration = try ConfigLoader.load(path: global.configPath)
        let all: [Gateway]
        do {
            all = try WiredGateways.current()
        } catch {
            throw CLIError("cannot read the routing table over rtnetlink (\(error)); run `deskdays doctor`.")
        }
        let gateways = try chosen(all)
        let interfaceName = gateways[0].interfaceName
        var macs: [String] = []
        for mac in gateways.compactMap(\.mac) where !macs.contains(mac.description) { macs.append(mac.description) }
        guard !macs.isEmpty else {
            throw CLIError("the gateway on \(interfaceName) is not resolved yet (the kernel learns its address when the machine first talks to it); open any web page, then try again.")
        }
        let matcher = GatewayMatcher(configuration.wired)
        if let rule = gateways.lazy.compactMap({ matcher.rule(for: $0) }).first {
            print("The gateway on \(interfaceName) is already the wired network \"\(rule)\" in \(global.configPath); nothing was added.")
            Enrollment.remindIfOff(configuration.wired.enabled, method: "Wired", section: "wired")
            return
        }
        let resolved = Self.families(gateways.filter { $0.mac != nil })
        print("Docked on \(interfaceName): the \(resolved) gateway, \(macs.count) hardware address\(macs.count == 1 ? "" : "es").")
        let waiting = gateways.filter { $0.mac == nil }
        if !waiting.isEmpty {
            // Usually the same router; if not, its address can be added to the block by hand once known.
            print("The \(Self.families(waiting)) gateway is not resolved yet, so it is not in the rule.")
        }
        let block = "[[wired.networks]]\nname = \(ConfigEditor.quoted(name))\ngateway_mac = [\(macs.map(ConfigEditor.quoted).joined(separator: ", "))]\n"
        try Enrollment.append(block, rule: "wired network \(ConfigEditor.quoted(name))", to: global.configPath)
        Enrollment.remindIfOff(configuration.wired.enabled, method: "Wired", section: "wired")
    }

    /// "IPv4", "IPv6" or "IPv4 and IPv6".
    static func families(_ gateways: [Gateway]) -> String {
        Set(gateways.map(\.family)).sorted { $0 == .ipv4 && $1 == .ipv6 }.map(\.description).joined(separator: " and ")
    }

    /// The gateways of one interface: the one asked for, else the only one,
    /// else the only one that is not wireless (a docked laptop with Wi-Fi on).
    func chosen(_ gateways: [Gateway]) throws -> [Gateway] {
        if let interface {
            let mine = gateways.filter { $0.interfaceName == interface }
            guard !mine.isEmpty else {
                throw CLIError("\(interface) has no default gateway now (not up, or no route through it); plug it in or choose another with --interface.")
            }
            return mine
        }
        guard !gateways.isEmpty else {
            throw CLIError("there is no default gateway now (not docked, or the link is down); dock at the office, then try again.")
        }
        var names: [String] = []
        for gateway in gateways where !names.contains(gateway.interfaceName) { names.append(gateway.interfaceName) }
        let wired = names.filter { !FileManager.default.fileExists(atPath: "/sys/class/net/\($0)/wireless") }
        guard let only = names.count == 1 ? names.first : (wired.count == 1 ? wired.first : nil) else {
            throw CLIError("several interfaces have a default gateway (\(names.joined(separator: ", "))); choose one with --interface.")
        }
        return gateways.filter { $0.interfaceName == only }
    }
}

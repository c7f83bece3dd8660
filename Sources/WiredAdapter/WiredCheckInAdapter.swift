import DeviceThread
import DeskDaysConfig
import DeskDaysCore
import Foundation
import Logging
import NetworkPresence
import Wired

/// The wired check-in adapter: the office recognised by the MAC of the
/// default gateway (IPv4 or IPv6), followed through rtnetlink as events.
/// A gateway matching a `[[wired.networks]]` rule on an interface that is up
/// is an arrival; the link going down or the gateway changing is a
/// departure once the flap window has passed without a return (the
/// presence rule the Wi-Fi method shares, `NetworkPresence`). MACs and
/// addresses are never logged or stored; interface names, families and
/// rule names are.
///
/// An agent that starts (or resumes) while docked at the office reports
/// that arrival: the first read is a snapshot like any other.
public struct WiredCheckInAdapter: CheckInAdapter {
    public var source: Source { .wired }

    private let matcher: GatewayMatcher
    private let presence: NetworkPresence<RouteSnapshot, Gateway.Key>

    /// - Parameters:
    ///   - flapWindow: a link or gateway that comes back within this many
    ///     seconds never left: no departure, no second arrival.
    ///   - clock: the agent's clock: stamped on events, and the departure timer's waits.
    public init(settings: WiredSettings, flapWindow: TimeInterval = defaultFlapWindow,
                logger: Logger = Logger(label: "deskdays.wired"), clock: AgentClock = .system) {
        matcher = GatewayMatcher(settings)
        presence = NetworkPresence(source: .wired, label: "wired", flapWindow: flapWindow, logger: logger, clock: clock)
    }

    /// Five minutes, as for Wi-Fi; `DESKDAYS_WIRED_FLAP_SECONDS` overrides it.
    public static var defaultFlapWindow: TimeInterval {
        NetworkPresence<RouteSnapshot, Gateway.Key>.flapWindow(overriddenBy: "DESKDAYS_WIRED_FLAP_SECONDS")
    }

    public func run(emit: @escaping @Sendable (CheckInEvent) async -> Void) async throws {
        var memory = GatewayMemory()
        var summary = ""
        try await presence.run(thread: "deskdays-wired", open: Self.open, matches: { snapshot in
            let gateways = memory.resolve(snapshot.gateways)
            var matches: [Gateway.Key: String?] = [:]
            for gateway in gateways { matches[gateway.key] = matcher.rule(for: gateway) }
            let described = Self.describe(gateways, matches)
            if described != summary {
                summary = described
                presence.logger.info("wired gateways: \(described)")
            }
            return matches
        }, emit: emit)
    }

    /// Opens rtnetlink for the watcher: the event socket joins the link,
    /// neighbour and route groups before the first read, and a burst is
    /// read again only when it can change a default gateway
    /// (`RouteSnapshot.isChanged(by:)`); a gateway not resolved yet is
    /// waited for, as the kernel's RTM_NEWNEIGH.
    static func open(_ stop: StopSignal, _ report: @Sendable (NetworkUpdate<RouteSnapshot>) -> Void) throws
        -> NetworkWatcher<RouteSnapshot>.Source? {
        let events = try RouteSocket()
        try events.listen()
        let requests = try RouteSocket()
        let last = Last()
        return .init(events: events.fileDescriptor, changes: {
            try events.receive().contains { last.snapshot.isChanged(by: $0) }
        }, read: {
            let snapshot = try requests.snapshot()
            last.snapshot = snapshot
            return snapshot
        })
    }

    /// The last snapshot read, which decides whether an event changes anything
    /// (confined to the watcher's thread).
    final class Last {
        var snapshot = RouteSnapshot()
    }

    /// "eth0 IPv4: hq, eth0 IPv6: no rule", or "none": interface names,
    /// families and rule names only.
    static func describe(_ gateways: [Gateway], _ matches: [Gateway.Key: String?]) -> String {
        guard !gateways.isEmpty else { return "none" }
        return gateways.map { gateway in
            let state = gateway.mac == nil ? "not resolved yet" : (matches[gateway.key] ?? nil) ?? "no rule"
            return "\(gateway.interfaceName) \(gateway.family): \(state)"
        }.joined(separator: ", ")
    }
}

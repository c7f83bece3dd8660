import DeviceThread
import DeskDaysConfig
import DeskDaysCore
import Foundation
import Logging
import NetworkPresence
import NL80211

/// The Wi-Fi check-in adapter: nl80211 over generic netlink, event-driven.
/// A connection to a network matching a `[[wifi.networks]]` rule is an
/// arrival carrying the rule's name; leaving it is a departure once the
/// flap window has passed without a return (the presence rule the wired
/// method shares, `NetworkPresence`). SSIDs and BSSIDs are never logged or
/// stored; interface names and rule names are.
///
/// No Wi-Fi, no cfg80211 or netlink refused: the adapter says so once and
/// then waits without spinning (it neither returns, which would make the
/// supervisor restart it every minute, nor polls); when cfg80211 appears
/// (a dongle plugged in) it starts reading.
public struct WiFiCheckInAdapter: CheckInAdapter {
    public var source: Source { .wifi }

    private let matcher: NetworkMatcher
    private let presence: NetworkPresence<[Link], UInt32>

    /// - Parameters:
    ///   - flapWindow: a network left and joined again within this many
    ///     seconds never left: no departure, no second arrival.
    ///   - clock: the agent's clock: stamped on events, and the departure timer's waits.
    public init(settings: WiFiSettings, flapWindow: TimeInterval = defaultFlapWindow,
                logger: Logger = Logger(label: "deskdays.wifi"), clock: AgentClock = .system) {
        matcher = NetworkMatcher(settings)
        presence = NetworkPresence(source: .wifi, label: "Wi-Fi", flapWindow: flapWindow, logger: logger, clock: clock)
    }

    /// Five minutes; `DESKDAYS_WIFI_FLAP_SECONDS` overrides it.
    public static var defaultFlapWindow: TimeInterval {
        NetworkPresence<[Link], UInt32>.flapWindow(overriddenBy: "DESKDAYS_WIFI_FLAP_SECONDS")
    }

    public func run(emit: @escaping @Sendable (CheckInEvent) async -> Void) async throws {
        try await presence.run(thread: "deskdays-wifi", open: Self.open, matches: { links in
            var matches: [UInt32: String?] = [:]
            for link in links { matches[link.interfaceIndex] = matcher.rule(for: link) }
            // Counts only: the SSIDs and BSSIDs stay out of the log.
            presence.logger.info("Wi-Fi links: \(links.count) connected, \(matches.values.compactMap { $0 }.count) matching a rule")
            return matches
        }, emit: emit)
    }

    /// Opens nl80211 for the watcher: a request socket, and an event socket
    /// in the `mlme` group (CONNECT, ROAM and DISCONNECT; AUTHENTICATE,
    /// ASSOCIATE and CONNECT arrive together, one read per burst).
    static func open(_ stop: StopSignal, _ report: @Sendable (NetworkUpdate<[Link]>) -> Void) throws
        -> NetworkWatcher<[Link]>.Source? {
        let requests = try NL80211Socket()
        let events = try NL80211Socket()
        guard let family = try waitForNL80211(requests: requests, events: events, stop: stop, report: report) else { return nil }
        try events.membership(requests.groupID(family: NL80211.familyName, group: NL80211.mlmeGroup))
        let reader = LinkReader(socket: requests, family: family)
        return .init(events: events.fileDescriptor, changes: {
            try events.receive().contains { message in
                message.type == family && (try? MLMEEvent(message.generic()))?.changesLink == true
            }
        }, read: { try reader.links() })
    }

    /// Resolves nl80211. When the kernel has none, reports that once and
    /// waits, without waking, for the controller to announce the family
    /// (cfg80211 loading when a Wi-Fi dongle is plugged in). Nil: stopped.
    /// The report is made once the wait is set up, so that "unavailable"
    /// means the thread now only waits (a test can rely on it).
    private static func waitForNL80211(requests: NL80211Socket, events: NL80211Socket, stop: StopSignal,
                                       report: @Sendable (NetworkUpdate<[Link]>) -> Void) throws -> UInt16? {
        do {
            return try requests.resolve(family: NL80211.familyName)
        } catch WiFiUnavailable.noNL80211 {}
        let notify: Int32
        do {
            notify = try requests.groupID(family: "nlctrl", group: "notify")
            try events.membership(notify)
        } catch {
            // No announcements to wait for: wait for shutdown alone.
            report(.unavailable(WiFiUnavailable.noNL80211.description))
            _ = stop.wait(for: nil)
            return nil
        }
        report(.unavailable(WiFiUnavailable.noNL80211.description))
        while stop.wait(for: events.fileDescriptor) {
            for message in (try? events.receive()) ?? [] where message.type == GenericNetlinkControl.familyID {
                guard let generic = try? message.generic(), generic.command == GenericNetlinkControl.commandNewFamily,
                      let family = try? ControlFamily(attributes: generic.attributes),
                      family.name == Array(NL80211.familyName.utf8) else { continue }
                try events.membership(notify, join: false)
                return family.id
            }
        }
        return nil
    }
}

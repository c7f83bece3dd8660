import DeviceThread
import DeskDaysConfig
import DeskDaysCore
import Foundation
import Logging
import NL80211

/// The Wi-Fi check-in adapter: nl80211 over generic netlink, event-driven.
/// Each arrival on a network matching a `[[wifi.networks]]` rule becomes
/// one `CheckInEvent` carrying the rule's name. SSIDs and BSSIDs are never
/// logged or stored; interface names and rule names are.
///
/// No Wi-Fi, no cfg80211 or netlink refused: the adapter says so once and
/// then waits without spinning (it neither returns, which would make the
/// supervisor restart it every minute, nor polls).
public struct WiFiCheckInAdapter: CheckInAdapter {
    public var source: Source { .wifi }

    private let matcher: NetworkMatcher
    private let flapWindow: TimeInterval
    private let logger: Logger
    private let now: @Sendable () -> Date

    /// - Parameters:
    ///   - flapWindow: a reconnect to the same network within this many
    ///     seconds is the same arrival.
    ///   - now: the clock stamped on events.
    public init(settings: WiFiSettings, flapWindow: TimeInterval = defaultFlapWindow,
                logger: Logger = Logger(label: "deskdays.wifi"), now: @escaping @Sendable () -> Date = { Date() }) {
        matcher = NetworkMatcher(settings)
        self.flapWindow = flapWindow
        self.logger = logger
        self.now = now
    }

    /// Five minutes; `DESKDAYS_WIFI_FLAP_SECONDS` overrides it so the
    /// benchmark can time 20 reconnects, each a fresh arrival.
    public static var defaultFlapWindow: TimeInterval {
        ProcessInfo.processInfo.environment["DESKDAYS_WIFI_FLAP_SECONDS"].flatMap(TimeInterval.init) ?? 300
    }

    public func run(emit: @escaping @Sendable (CheckInEvent) async -> Void) async throws {
        var tracker = ArrivalTracker(flapWindow: flapWindow)
        // The rules connected at the last snapshot, and those left since
        // (docs/policy.md "Time on site": disconnecting is a departure; a
        // reconnect after one is an arrival again, even within the flap window).
        var connected: Set<String> = [], departed: Set<String> = []
        for await update in Self.updates() {
            switch update {
            case .unavailable(let reason):
                logger.warning("Wi-Fi unavailable: \(reason); Wi-Fi check-ins are off until it appears")
            case .readFailed(let reason):
                logger.error("could not read the Wi-Fi link: \(reason)")
            case .links(let links):
                let time = now()
                var matches: [UInt32: String?] = [:]
                for link in links {
                    matches[link.interfaceIndex] = matcher.rule(for: link)
                }
                // Counts only: the SSIDs and BSSIDs stay out of the log.
                logger.info("Wi-Fi links: \(links.count) connected, \(matches.values.compactMap { $0 }.count) matching a rule")
                let arrivals = tracker.update(matches, at: time)
                let now = Set(matches.values.compactMap { $0 })
                for rule in connected.subtracting(now).sorted() {
                    logger.info("Wi-Fi: left network \(rule)")
                    departed.insert(rule)
                    await emit(CheckInEvent(source: .wifi, rule: rule, time: time, kind: .departure))
                }
                let returned = now.subtracting(connected).intersection(departed).subtracting(arrivals)
                for rule in arrivals + returned.sorted() {
                    // A return within the flap window is the same arrival for the tracker, but presence resumes.
                    logger.info(arrivals.contains(rule) ? "Wi-Fi: arrived on network \(rule)" : "Wi-Fi: back on network \(rule)")
                    departed.remove(rule)
                    await emit(CheckInEvent(source: .wifi, rule: rule, time: time))
                }
                connected = now
            }
        }
        try Task.checkCancellation()
    }

    /// The device thread's reports as a stream; ending the stream stops the thread.
    static func updates() -> AsyncStream<LinkUpdate> {
        let watcher: LinkWatcher
        do {
            watcher = try LinkWatcher()
        } catch {
            return AsyncStream { $0.yield(.readFailed("\(error)")); $0.finish() }
        }
        return DeviceStream.start(name: "deskdays-wifi", stop: { watcher.stop() }) { yield in watcher.run(yield) }
    }
}

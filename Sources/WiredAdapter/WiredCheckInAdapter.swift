import DeviceThread
import DeskDaysConfig
import DeskDaysCore
import Foundation
import Logging
import Wired

/// The wired check-in adapter: the office recognised by the MAC of the
/// default gateway (IPv4 or IPv6), followed through rtnetlink as events.
/// A gateway matching a `[[wired.networks]]` rule on an interface that is up
/// is an arrival; the link going down or the gateway changing is a
/// departure, reported once the flap window has passed without a return
/// (and stamped with the moment it left). MACs and addresses are never
/// logged or stored; interface names, families and rule names are.
///
/// An agent that starts (or resumes) while docked at the office reports
/// that arrival: the first read is a snapshot like any other.
public struct WiredCheckInAdapter: CheckInAdapter {
    public var source: Source { .wired }

    private let matcher: GatewayMatcher
    private let flapWindow: TimeInterval
    private let logger: Logger
    private let clock: AgentClock

    /// - Parameters:
    ///   - flapWindow: a link or gateway that comes back within this many
    ///     seconds never left: no departure, no second arrival.
    ///   - clock: the agent's clock: stamped on events, and the departure timer's waits.
    public init(settings: WiredSettings, flapWindow: TimeInterval = defaultFlapWindow,
                logger: Logger = Logger(label: "deskdays.wired"), clock: AgentClock = .system) {
        matcher = GatewayMatcher(settings)
        self.flapWindow = flapWindow
        self.logger = logger
        self.clock = clock
    }

    /// Five minutes, as for Wi-Fi; `DESKDAYS_WIRED_FLAP_SECONDS` overrides it
    /// so the benchmark can time 50 link cycles, each a fresh arrival.
    public static var defaultFlapWindow: TimeInterval {
        ProcessInfo.processInfo.environment["DESKDAYS_WIRED_FLAP_SECONDS"].flatMap(TimeInterval.init) ?? 300
    }

    /// What the run loop reacts to: the device thread's reports, and the end
    /// of a flap window.
    enum Input: Sendable {
        case update(WiredUpdate)
        case deadline
    }

    public func run(emit: @escaping @Sendable (CheckInEvent) async -> Void) async throws {
        var tracker = PresenceTracker<Gateway.Key>(flapWindow: flapWindow)
        var memory = GatewayMemory()
        var summary = ""
        guard let watcher = try? GatewayWatcher() else {
            logger.error("could not start the wired watcher (out of file descriptors?)")
            return
        }
        // The watcher's updates and the timer's deadlines, one stream in arrival order; ending it stops the watcher.
        let (inputs, continuation) = AsyncStream.makeStream(of: Input.self)
        continuation.onTermination = { _ in watcher.stop() }
        DeviceStream.spawn("deskdays-wired") {
            watcher.run { continuation.yield(.update($0)) }
            continuation.finish()
        }
        var timer: Task<Void, Never>?
        var timerDeadline: Date?
        defer { timer?.cancel() }
        for await input in inputs {
            let time = clock.now()
            var changes: [PresenceTracker<Gateway.Key>.Change] = []
            switch input {
            case .update(.unavailable(let reason)):
                logger.warning("wired method unavailable: \(reason); wired check-ins are off")
            case .update(.readFailed(let reason)):
                logger.error("could not read the routing state: \(reason)")
            case .update(.snapshot(let snapshot)):
                let gateways = memory.resolve(snapshot.gateways)
                var matches: [Gateway.Key: String?] = [:]
                for gateway in gateways { matches[gateway.key] = matcher.rule(for: gateway) }
                let described = Self.describe(gateways, matches)
                if described != summary {
                    summary = described
                    logger.info("wired gateways: \(described)")
                }
                changes = tracker.update(matches, at: time)
            case .deadline:
                changes = tracker.expire(at: time)
            }
            for change in changes { await report(change, emit) }
            // One timer, for the earliest pending departure (none while nothing is pending).
            if tracker.nextDeadline != timerDeadline {
                timer?.cancel()
                timerDeadline = tracker.nextDeadline
                if let deadline = timerDeadline {
                    timer = Task {
                        try? await clock.sleep(until: deadline)
                        if !Task.isCancelled { continuation.yield(.deadline) }
                    }
                }
            }
        }
        // Stopping: a departure seen but not yet final is still a departure.
        for change in tracker.flush() { await report(change, emit) }
        try Task.checkCancellation()
    }

    private func report(_ change: PresenceTracker<Gateway.Key>.Change, _ emit: @Sendable (CheckInEvent) async -> Void) async {
        switch change {
        case .arrival(let rule, let time):
            logger.info("wired: arrived on network \(rule)")
            await emit(CheckInEvent(source: .wired, rule: rule, time: time, kind: .arrival))
        case .departure(let rule, let time):
            logger.info("wired: left network \(rule)")
            await emit(CheckInEvent(source: .wired, rule: rule, time: time, kind: .departure))
        case .returned(let rule, _):
            logger.info("wired: back on network \(rule) within the flap window: the same arrival")
        }
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

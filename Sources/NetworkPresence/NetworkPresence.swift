import DeskDaysCore
import DeviceThread
import Foundation
import Logging

/// The presence rule the Wi-Fi and wired methods share, and their run loop:
/// each snapshot from the method's `NetworkWatcher` says which rule each
/// path (a Wi-Fi interface; a wired interface and address family) is on;
/// `PresenceTracker` turns the snapshots into arrivals and departures with
/// the flap window (a network left and found again within it never left:
/// no departure, no second arrival), and one timer, on the agent's clock,
/// reports a departure once its window has passed, stamped with the moment
/// the network was left. Stopping reports the departures still pending.
public struct NetworkPresence<Snapshot: Sendable, Path: Hashable & Sendable>: Sendable {
    /// The method: stamped on events.
    public let source: Source
    /// The method as log lines name it ("Wi-Fi", "wired").
    public let label: String
    public let flapWindow: TimeInterval
    public let logger: Logger
    public let clock: AgentClock

    public init(source: Source, label: String, flapWindow: TimeInterval, logger: Logger, clock: AgentClock) {
        self.source = source
        self.label = label
        self.flapWindow = flapWindow
        self.logger = logger
        self.clock = clock
    }

    /// What the loop reacts to: the thread's reports, and the end of a flap window.
    enum Input: Sendable {
        case update(NetworkUpdate<Snapshot>)
        case deadline
    }

    /// Runs the method's watcher on a thread named `thread` until cancelled.
    /// `matches` gives each path's rule (nil: on no rule) in a snapshot; it
    /// is called on this task, in order, so it may keep state of its own.
    public func run(thread: String,
                    open: @escaping @Sendable (StopSignal, _ report: @Sendable (NetworkUpdate<Snapshot>) -> Void) throws
                        -> NetworkWatcher<Snapshot>.Source?,
                    matches: (Snapshot) -> [Path: String?],
                    emit: @escaping @Sendable (CheckInEvent) async -> Void) async throws {
        var tracker = PresenceTracker<Path>(flapWindow: flapWindow)
        guard let watcher = try? NetworkWatcher<Snapshot>() else {
            logger.error("could not start the \(label) watcher (out of file descriptors?)")
            return
        }
        // The watcher's updates and the timer's deadlines, one stream in arrival order; ending it stops the watcher.
        let (inputs, continuation) = AsyncStream.makeStream(of: Input.self)
        continuation.onTermination = { _ in watcher.stop() }
        DeviceStream.spawn(thread) {
            watcher.run({ continuation.yield(.update($0)) }, open: open)
            continuation.finish()
        }
        var timer: Task<Void, Never>?
        var timerDeadline: Date?
        defer { timer?.cancel() }
        for await input in inputs {
            let time = clock.now()
            var changes: [PresenceTracker<Path>.Change] = []
            switch input {
            case .update(.unavailable(let reason)):
                logger.warning("\(label) unavailable: \(reason); \(label) check-ins are off until it appears")
            case .update(.readFailed(let reason)):
                logger.error("\(label): a read failed: \(reason)")
            case .update(.snapshot(let snapshot)):
                changes = tracker.update(matches(snapshot), at: time)
            case .deadline:
                changes = tracker.expire(at: time)
            }
            for change in changes { await report(change, emit) }
            // One timer, for the earliest pending departure (none while nothing is pending).
            if tracker.nextDeadline != timerDeadline {
                timer?.cancel()
                timerDeadline = tracker.nextDeadline
                if let deadline = timerDeadline {
                    timer = Task { [clock] in
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

    private func report(_ change: PresenceTracker<Path>.Change, _ emit: @Sendable (CheckInEvent) async -> Void) async {
        switch change {
        case .arrival(let rule, let time):
            logger.info("\(label): arrived on network \(rule)")
            await emit(CheckInEvent(source: source, rule: rule, time: time, kind: .arrival))
        case .departure(let rule, let time):
            logger.info("\(label): left network \(rule)")
            await emit(CheckInEvent(source: source, rule: rule, time: time, kind: .departure))
        case .returned(let rule, _):
            logger.info("\(label): back on network \(rule) within the flap window: the same arrival")
        }
    }

    /// The flap window: five minutes, or the seconds (0 to a day) in the
    /// environment variable `name`, which the benchmarks and the Wi-Fi
    /// virtual-radio test set; any other value there is ignored.
    public static func flapWindow(overriddenBy name: String) -> TimeInterval {
        ProcessInfo.processInfo.environment[name].flatMap(TimeInterval.init)
            .flatMap { (0...86_400).contains($0) ? $0 : nil } ?? 300
    }
}

import Foundation
import Synchronization

/// The agent's one clock: "now" on the wall, and every wait (reminder,
/// fallback, midnight, checkpoint, restart backoff, departure timers) — the
/// agent and each adapter read time only through it.
///
/// Three kinds: the system's (`.system`); an injected start (`DESKDAYS_NOW`)
/// that then runs on with the monotonic clock; and a start that moves only
/// when told (`ManualClock`): tests advance it past a timer instead of
/// waiting for it.
public struct AgentClock: Sendable {
    /// The wall-clock now.
    public let now: @Sendable () -> Date
    /// This machine's clock (`ClockTime`): what the agent's journal lines,
    /// hybrid clock times and record times are stamped with and other
    /// devices' lines checked against. An injected start (`DESKDAYS_NOW`)
    /// moves only `now`, the date the agent answers for; the machine's
    /// clock stays the system's. Only a manual clock (tests) stands in for
    /// both, so that a test can move the machine's clock too.
    public var reading: @Sendable () -> ClockTime {
        let machine = self.machine
        return { ClockTime(reading: machine()) }
    }
    private let machine: @Sendable () -> Date
    private let machineSleeperUntil: @Sendable (Date) async throws -> Void
    /// Time elapsed on the clock that drives the waits (monotonic), since the clock was made.
    public let elapsed: @Sendable () -> Duration
    private let sleeper: @Sendable (Duration) async throws -> Void
    private let sleeperUntil: @Sendable (Date) async throws -> Void
    /// Whether "now" is the system clock's (no injected start).
    public let isSystemClock: Bool
    /// Moves a manual clock on (nil for every other kind): the control
    /// socket's `advance`, for tests.
    public private(set) var advance: (@Sendable (Duration) -> Void)?

    /// The system's wall clock, waits on the monotonic clock.
    public static var system: AgentClock {
        let origin = ContinuousClock.now
        return AgentClock(now: { Date() }, elapsed: { ContinuousClock.now - origin },
                          sleeper: { try await Task.sleep(for: $0) },
                          sleeperUntil: systemSleeperUntil, isSystemClock: true)
    }

    /// Waits until the system's wall clock reaches `instant`.
    private static let systemSleeperUntil: @Sendable (Date) async throws -> Void = { instant in
        let left = instant.timeIntervalSinceNow
        if left > 0 { try await Task.sleep(for: .milliseconds(Int64((left * 1000).rounded(.up)))) }
    }

    /// `start` (nil: the system clock), then advancing as the monotonic clock does.
    public init(start: Date? = nil) {
        if let start { self.init(start: start, clock: ContinuousClock()) } else { self = .system }
    }

    /// "now" is `start` at this moment and advances as `clock` does; waits are on `clock`.
    /// The machine's clock is the system's unless `machineIsStart` (a manual clock: tests).
    public init<C: Clock>(start: Date, clock: C, machineIsStart: Bool = false) where C.Duration == Duration {
        let origin = clock.now
        let now: @Sendable () -> Date = { start.addingTimeInterval(origin.duration(to: clock.now).seconds) }
        // The instant as a point on `clock` (start + offset): an advance between
        // deciding and sleeping cannot move it.
        let sleeperUntil: @Sendable (Date) async throws -> Void = { instant in
            let offset = Duration.milliseconds(Int64((instant.timeIntervalSince(start) * 1000).rounded(.up)))
            try await clock.sleep(until: origin.advanced(by: offset), tolerance: nil)
        }
        self.init(now: now, elapsed: { origin.duration(to: clock.now) },
                  sleeper: { try await clock.sleep(until: clock.now.advanced(by: $0), tolerance: nil) },
                  sleeperUntil: sleeperUntil, isSystemClock: false,
                  machine: machineIsStart ? now : { Date() },
                  machineSleeperUntil: machineIsStart ? sleeperUntil : Self.systemSleeperUntil)
    }

    /// `start`, moving only when `advance` is called (`DESKDAYS_CLOCK=manual`);
    /// it stands for the machine's clock too.
    public static func manual(start: Date) -> AgentClock {
        let manual = ManualClock()
        var clock = AgentClock(start: start, clock: manual, machineIsStart: true)
        clock.advance = { manual.advance(by: $0) }
        return clock
    }

    private init(now: @escaping @Sendable () -> Date, elapsed: @escaping @Sendable () -> Duration,
                 sleeper: @escaping @Sendable (Duration) async throws -> Void,
                 sleeperUntil: @escaping @Sendable (Date) async throws -> Void, isSystemClock: Bool,
                 machine: (@Sendable () -> Date)? = nil, machineSleeperUntil: (@Sendable (Date) async throws -> Void)? = nil) {
        self.now = now
        self.elapsed = elapsed
        self.sleeper = sleeper
        self.sleeperUntil = sleeperUntil
        self.isSystemClock = isSystemClock
        self.machine = machine ?? now
        self.machineSleeperUntil = machineSleeperUntil ?? sleeperUntil
    }

    /// Waits `duration` on this clock; throws `CancellationError` when the task is cancelled.
    public func sleep(for duration: Duration) async throws {
        try await sleeper(duration)
    }

    /// Waits until "now" reaches `instant` (at once if it has): for a timer
    /// whose instant was decided before the wait began. On a manual clock an
    /// advance that comes between the decision and the wait still wakes it.
    public func sleep(until instant: Date) async throws {
        try await sleeperUntil(instant)
    }

    /// Waits until the machine's clock (`reading`) reaches `instant`: a held
    /// sync line, stamped by another machine's clock.
    public func sleep(untilReading instant: Date) async throws {
        try await machineSleeperUntil(instant)
    }
}

extension Duration {
    /// In seconds, with the fraction.
    public var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}

/// A clock that moves only when `advance` is called: every sleeper whose
/// deadline is reached wakes, in deadline order. For tests (in process, or
/// a spawned agent told over its socket; docs/testing.md "Timers").
public final class ManualClock: Clock, Sendable {
    public struct Instant: InstantProtocol {
        public var offset: Duration
        public init(offset: Duration = .zero) { self.offset = offset }
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
    }

    private struct Sleeper {
        var id: UInt64
        var deadline: Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    /// The time, who sleeps until when, and the last sleeper's number.
    private struct State {
        var current = Instant()
        var sleepers: [Sleeper] = []
        var nextID: UInt64 = 0
    }

    private let state = Mutex(State())

    public init() {}

    public var now: Instant { state.withLock { $0.current } }
    public var minimumResolution: Duration { .zero }

    /// How many tasks wait on this clock (a test can wait until the code under test sleeps).
    public var sleeping: Int { state.withLock { $0.sleepers.count } }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id: UInt64 = state.withLock {
            $0.nextID += 1
            return $0.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resume: Result<Void, any Error>? = state.withLock { state in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if deadline <= state.current { return .success(()) }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return nil
                }
                if let resume { continuation.resume(with: resume) }
            }
        } onCancel: {
            let cancelled = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.sleepers.remove(at: index)
            }
            cancelled?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock `duration` on and wakes every sleeper whose deadline it reached.
    public func advance(by duration: Duration) {
        let due: [Sleeper] = state.withLock { state in
            state.current = state.current.advanced(by: max(.zero, duration))
            let now = state.current
            let due = state.sleepers.filter { $0.deadline <= now }.sorted { $0.deadline < $1.deadline }
            state.sleepers.removeAll { $0.deadline <= now }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }
}

import DeskDaysCore
import Foundation
import Testing

/// The agent's clock (Sources/DeskDaysCore/AgentClock.swift): a manual clock
/// wakes exactly the sleepers whose deadline an advance reaches, in order,
/// and its wall-clock "now" moves with it — no test waits in real time.
struct AgentClockTests {
    /// Waits (by yielding, not by time) until `count` tasks sleep on `clock`.
    func sleepers(_ clock: ManualClock, _ count: Int) async {
        while clock.sleeping < count { await Task.yield() }
    }

    @Test func anAdvanceWakesTheSleepersItReachesInDeadlineOrder() async throws {
        let clock = ManualClock()
        let late = Task { try await clock.sleep(for: .seconds(10)) }
        let early = Task { try await clock.sleep(for: .seconds(3)) }
        await sleepers(clock, 2)
        clock.advance(by: .seconds(2))
        #expect(clock.sleeping == 2)
        clock.advance(by: .seconds(1))
        try await early.value
        #expect(clock.sleeping == 1)
        clock.advance(by: .seconds(60))
        try await late.value
        #expect(clock.sleeping == 0)
    }

    @Test func aCancelledSleeperLeavesAndThrows() async {
        let clock = ManualClock()
        let task = Task { try await clock.sleep(for: .seconds(5)) }
        await sleepers(clock, 1)
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(clock.sleeping == 0)
    }

    @Test func aManualAgentClockMovesItsWallClockOnlyWhenAdvanced() async throws {
        let start = Date(timeIntervalSince1970: 1_795_000_000)
        let clock = AgentClock.manual(start: start)
        #expect(clock.now() == start && !clock.isSystemClock)
        let advance = try #require(clock.advance)
        advance(.seconds(90))
        #expect(clock.now() == start.addingTimeInterval(90))
        #expect(clock.elapsed() == .seconds(90))
        #expect(AgentClock.system.advance == nil && AgentClock(start: start).advance == nil)
    }

    /// A timer decided at "now" and slept on after the clock moved past it
    /// (an advance between the decision and the wait) still wakes: the
    /// instant is a point on the clock, not a duration from when the wait began.
    @Test func sleepingUntilAnInstantTheClockPassedReturnsAtOnce() async throws {
        let start = Date(timeIntervalSince1970: 1_795_000_000)
        let clock = AgentClock.manual(start: start)
        let advance = try #require(clock.advance)
        let decided = start.addingTimeInterval(5)
        advance(.seconds(10))
        try await clock.sleep(until: decided)
        let later = Task { try await clock.sleep(until: start.addingTimeInterval(30)) }
        advance(.seconds(15))
        advance(.seconds(5))
        try await later.value
        #expect(clock.now() == start.addingTimeInterval(30))
    }
}

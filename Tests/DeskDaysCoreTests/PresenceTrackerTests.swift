import DeskDaysCore
import Foundation
import Testing

/// The adapters' shared debounce with departures: a flap within the window
/// is one presence, a departure is final only once the window has passed and
/// carries the moment the rule left.
@Suite struct PresenceTrackerTests {
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    func at(_ seconds: TimeInterval) -> Date { t0.addingTimeInterval(seconds) }

    @Test func anArrivalThenAFlapIsOnePresence() {
        var tracker = PresenceTracker<Int>(flapWindow: 300)
        #expect(tracker.update([1: "hq"], at: at(0)) == [.arrival(rule: "hq", at: at(0))])
        #expect(tracker.update([1: nil], at: at(10)) == [])
        #expect(tracker.nextDeadline == at(310))
        #expect(tracker.update([1: "hq"], at: at(20)) == [.returned(rule: "hq", at: at(20))])
        #expect(tracker.nextDeadline == nil)
        #expect(tracker.expire(at: at(1000)) == [])
    }

    @Test func aDepartureIsFinalAfterTheWindowAndCarriesTheMomentItLeft() {
        var tracker = PresenceTracker<Int>(flapWindow: 300)
        _ = tracker.update([1: "hq"], at: at(0))
        #expect(tracker.update([:], at: at(100)) == [])
        #expect(tracker.expire(at: at(399)) == [])
        #expect(tracker.expire(at: at(400)) == [.departure(rule: "hq", at: at(100))])
        #expect(tracker.update([1: "hq"], at: at(500)) == [.arrival(rule: "hq", at: at(500))])
    }

    @Test func aReturnAfterTheWindowIsTheDepartureThenAnArrival() {
        var tracker = PresenceTracker<Int>(flapWindow: 300)
        _ = tracker.update([1: "hq"], at: at(0))
        _ = tracker.update([:], at: at(100))
        #expect(tracker.update([1: "hq"], at: at(900)) == [.departure(rule: "hq", at: at(100)), .arrival(rule: "hq", at: at(900))])
    }

    @Test func anotherRuleIsADepartureAndAnArrival() {
        var tracker = PresenceTracker<Int>(flapWindow: 0)
        _ = tracker.update([1: "hq"], at: at(0))
        #expect(tracker.update([1: "lab"], at: at(5)) == [.arrival(rule: "lab", at: at(5)), .departure(rule: "hq", at: at(5))])
        #expect(tracker.present == ["lab"])
    }

    @Test func aRuleOnTwoPathsIsOnePresenceUntilBothGo() {
        var tracker = PresenceTracker<Int>(flapWindow: 0)
        #expect(tracker.update([1: "hq", 2: "hq"], at: at(0)) == [.arrival(rule: "hq", at: at(0))])
        #expect(tracker.update([2: "hq"], at: at(1)) == [])
        #expect(tracker.update([2: nil], at: at(2)) == [.departure(rule: "hq", at: at(2))])
    }

    @Test func flushReportsEveryPendingDeparture() {
        var tracker = PresenceTracker<Int>(flapWindow: 300)
        _ = tracker.update([1: "hq", 2: "lab"], at: at(0))
        _ = tracker.update([:], at: at(10))
        #expect(tracker.flush() == [.departure(rule: "hq", at: at(10)), .departure(rule: "lab", at: at(10))])
        #expect(tracker.nextDeadline == nil)
    }
}

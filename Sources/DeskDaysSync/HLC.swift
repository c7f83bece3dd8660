import DeskDaysCore
import DeskDaysStore
import Foundation

/// A hybrid logical clock time (Kulkarni et al., 2014): wall-clock
/// milliseconds, and a counter that orders changes within one millisecond
/// or while the wall clock lags a time already seen.
///
/// Every change a device journals gets a time greater than every change it
/// has seen (its own and every merged one), so "latest" means the same on
/// every device: the order is (wall, counter), then the device id.
/// Pure: the wall clock is an argument.
public struct HLC: Comparable, Hashable, Sendable, CustomStringConvertible {
    public var wall: Int64
    public var counter: Int64

    public init(wall: Int64, counter: Int64) {
        self.wall = wall
        self.counter = counter
    }

    /// The time of a new change: `physical` (milliseconds) when it is past
    /// every time seen, else the latest time seen with the counter raised
    /// (past the greatest counter, the next millisecond: times seen come
    /// from outside, and no value of theirs may trap).
    static func next(after latest: HLC?, physical: Int64) -> HLC {
        guard let latest, latest.wall >= physical else { return HLC(wall: physical, counter: 0) }
        let (counter, overflow) = latest.counter.addingReportingOverflow(1)
        return overflow ? HLC(wall: latest.wall &+ 1, counter: 0) : HLC(wall: latest.wall, counter: counter)
    }

    /// The time of a change made now: this machine's clock reading, never
    /// the date a command answers for (`AskedTime` cannot be passed here).
    public static func next(after latest: HLC?, clock: ClockTime) -> HLC {
        next(after: latest, physical: milliseconds(clock.date))
    }

    /// Milliseconds since 1970 of `date`.
    public static func milliseconds(_ date: Date) -> Int64 {
        UTCTimestamp.milliseconds(date)
    }

    public var date: Date { Date(timeIntervalSince1970: Double(wall) / 1000) }

    public static func < (a: HLC, b: HLC) -> Bool { (a.wall, a.counter) < (b.wall, b.counter) }

    public var description: String { "\(UTCTimestamp.string(from: date))+\(counter)" }
}

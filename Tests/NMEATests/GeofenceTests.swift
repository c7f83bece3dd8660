import Foundation
import NMEA
import Testing

/// Geofence tables on synthetic tracks: positions are metres east/north of
/// the fence's centre, one fix per `step` seconds of receiver time.
@Suite struct GeofenceTests {
    static let centre = (latitude: 51.5072, longitude: -0.1276)
    static let fence = Geofence(name: "hq", latitude: centre.latitude, longitude: centre.longitude,
                                radiusM: 150, dwellS: 120)

    /// One point of a track.
    struct Point {
        var east: Double
        var north: Double
        var hdop: Double? = 1.0
        var mode: Fix.Mode = .threeD
    }

    static func fix(_ point: Point, at seconds: Int, withDate: Bool = true) -> Fix {
        let day = 20_000 + seconds / 86_400 // 2024-10-04 onwards
        let date = UTCDate(dayNumber: day)
        let within = seconds % 86_400
        let time = UTCTime(hour: within / 3600, minute: within / 60 % 60, second: within % 60)
        let metresPerDegree = 111_320.0
        return Fix(date: withDate ? date : nil, time: time, mode: point.mode,
                   latitude: point.mode == .noFix ? nil : centre.latitude + point.north / metresPerDegree,
                   longitude: point.mode == .noFix ? nil
                       : centre.longitude + point.east / (metresPerDegree * cos(centre.latitude * .pi / 180)),
                   hdop: point.hdop, satellites: 8)
    }

    /// Runs a track; returns the receiver second of each entry.
    static func run(_ track: [Point], start: Int = 36_000, step: Int = 1, withDate: Bool = true,
                    fence: Geofence = fence) -> [Int] {
        events(track, start: start, step: step, withDate: withDate, fence: fence).filter { $0.kind == .entered }.map(\.second)
    }

    /// Runs a track; returns every entry and departure with its receiver second.
    static func events(_ track: [Point], start: Int = 36_000, step: Int = 1, withDate: Bool = true,
                       fence: Geofence = fence) -> [(second: Int, kind: GeofenceEvent.Kind)] {
        var monitor = GeofenceMonitor(fences: [fence])
        var events: [(second: Int, kind: GeofenceEvent.Kind)] = []
        for (index, point) in track.enumerated() {
            let seconds = start + index * step
            for event in monitor.update(fix(point, at: seconds, withDate: withDate)) {
                #expect(event.name == "hq")
                events.append((seconds, event.kind))
            }
        }
        return events
    }

    static func stay(_ seconds: Int, at point: Point = Point(east: 0, north: 0)) -> [Point] {
        Array(repeating: point, count: seconds)
    }

    /// Walking from 600 m west at 1.5 m/s to the centre, then staying.
    static func approach() -> [Point] {
        stride(from: -600.0, to: 0, by: 1.5).map { Point(east: $0, north: 20) }
    }

    @Test func distanceIsHaversine() {
        // One degree of latitude is 111.2 km on the mean sphere.
        let metres = Geofence.distanceM(latitude1: 0, longitude1: 0, latitude2: 1, longitude2: 0)
        #expect(abs(metres - 111_195) < 1)
        #expect(GeofenceTests.fence.distanceM(latitude: 51.5072, longitude: -0.1276) == 0)
        #expect(GeofenceTests.fence.leaveRadiusM == 225)
    }

    @Test func approachAndStayEntersOnceAfterTheDwell() {
        let track = GeofenceTests.approach() + GeofenceTests.stay(1800)
        let entries = GeofenceTests.run(track)
        #expect(entries.count == 1)
        // Inside from about 150 m out, i.e. (600 - 150) / 1.5 = 300 fixes in.
        let firstInside = track.firstIndex { ($0.east * $0.east + $0.north * $0.north).squareRoot() <= 150 }!
        #expect(entries.first == 36_000 + firstInside + 120)
    }

    @Test func driveByWithoutDwellIsNothing() {
        // 12 m/s straight through, 40 m from the centre: about 24 s inside.
        let track = stride(from: -1000.0, through: 1000, by: 12).map { Point(east: $0, north: 40) }
        #expect(GeofenceTests.run(track).isEmpty)
    }

    @Test func jitterAtTheEdgeIsNoEntry() {
        // Sitting at the edge for an hour, the position jumping across it.
        let track = (0..<3600).map { Point(east: $0 % 3 == 0 ? 165 : 140, north: 0) }
        #expect(GeofenceTests.run(track).isEmpty)
    }

    @Test func jitterAfterEntryDoesNotFlap() {
        let edge = (0..<3600).map { Point(east: $0 % 2 == 0 ? 210 : 120, north: 0) }
        let track = GeofenceTests.stay(200) + edge + GeofenceTests.stay(600)
        #expect(GeofenceTests.run(track).count == 1)
        // 210 m is inside the 225 m leave radius: no departure either.
        #expect(!GeofenceTests.events(track).contains { $0.kind == .left })
    }

    @Test func leavingAndComingBackIsANewPresence() {
        let away = GeofenceTests.stay(600, at: Point(east: 0, north: 400))
        let track = GeofenceTests.stay(200) + away + GeofenceTests.stay(200)
        #expect(GeofenceTests.run(track) == [36_120, 36_000 + 800 + 120])
        // The first good fix beyond the leave radius is the one departure.
        let events = GeofenceTests.events(track)
        #expect(events.map(\.second) == [36_120, 36_200, 36_920])
        #expect(events.map(\.kind) == [.entered, .left, .entered])
    }

    @Test func aPassByAndADwellThatNeverCompletedLeaveNothing() {
        // Inside for 60 s, then 400 m away: no arrival, so no departure.
        let track = GeofenceTests.stay(60) + GeofenceTests.stay(300, at: Point(east: 0, north: 400))
        #expect(GeofenceTests.events(track).isEmpty)
    }

    @Test func theSourcesOwnErrorEstimateWinsOverHDOP() {
        // gpsd's eph: 80 m is more than half of the 150 m radius whatever the HDOP; 20 m is good without one.
        func stay(_ seconds: Int, error: Double?, hdop: Double?) -> [Fix] {
            (0..<seconds).map { second in
                var fix = GeofenceTests.fix(Point(east: 0, north: 0, hdop: hdop), at: 36_000 + second)
                fix.horizontalErrorM = error
                return fix
            }
        }
        var poor = GeofenceMonitor(fences: [GeofenceTests.fence])
        #expect(stay(300, error: 80, hdop: 1).flatMap { poor.update($0) }.isEmpty)
        var good = GeofenceMonitor(fences: [GeofenceTests.fence])
        #expect(stay(300, error: 20, hdop: nil).flatMap { good.update($0) } == [GeofenceEvent(name: "hq", kind: .entered)])
    }

    @Test func unixSecondsMakeTheSameReceiverTime() throws {
        // 2026-03-10T08:00:00.250Z, as gpsd sends it.
        let fix = try #require(Fix(unixSeconds: 1_773_129_600.25, mode: .threeD, latitude: 1, longitude: 2, horizontalErrorM: 9))
        #expect(fix.date == UTCDate(year: 2026, month: 3, day: 10))
        #expect(fix.time == UTCTime(hour: 8, minute: 0, second: 0, millisecond: 250))
        #expect(fix.receiverSeconds == 1_773_129_600.25)
        #expect(Fix(unixSeconds: 0, mode: .threeD, latitude: 1, longitude: 2, horizontalErrorM: 9) == nil)
        #expect(Fix(unixSeconds: .nan, mode: .threeD, latitude: 1, longitude: 2, horizontalErrorM: 9) == nil)
    }

    @Test func lossOfFixInsideKeepsThePresence() {
        let lost = GeofenceTests.stay(3 * 3600, at: Point(east: 0, north: 0, hdop: nil, mode: .noFix))
        let track = GeofenceTests.stay(200) + lost + GeofenceTests.stay(600)
        #expect(GeofenceTests.run(track).count == 1)
    }

    @Test func sleepingOvernightInsideIsANewArrival() {
        // No fix at all for 14 hours (suspended), then fixes at the office again.
        var monitor = GeofenceMonitor(fences: [GeofenceTests.fence])
        var entries = 0
        for second in 0..<200 { entries += monitor.update(GeofenceTests.fix(Point(east: 0, north: 0), at: 60_000 + second)).count }
        for second in 0..<200 { entries += monitor.update(GeofenceTests.fix(Point(east: 0, north: 0), at: 110_400 + second)).count }
        #expect(entries == 2, "two arrivals and no departure: nothing was seen leaving")
    }

    @Test func lossOfFixDuringDwellRestartsIt() {
        let lost = GeofenceTests.stay(300, at: Point(east: 0, north: 0, hdop: nil, mode: .noFix))
        let track = GeofenceTests.stay(100) + lost + GeofenceTests.stay(100)
        #expect(GeofenceTests.run(track).isEmpty)
    }

    @Test func poorHDOPIsNoEntry() {
        // HDOP 20 × 5 m = 100 m error: more than half of a 150 m radius.
        let poor = GeofenceTests.stay(900, at: Point(east: 0, north: 0, hdop: 20))
        let unknown = GeofenceTests.stay(900, at: Point(east: 0, north: 0, hdop: nil))
        #expect(GeofenceTests.run(poor).isEmpty)
        #expect(GeofenceTests.run(unknown).isEmpty)
        #expect(GeofenceTests.run(poor + GeofenceTests.stay(200)) == [36_000 + 900 + 120])
    }

    @Test func twoDFixCounts() {
        let track = GeofenceTests.stay(200, at: Point(east: 10, north: 10, mode: .twoD))
        #expect(GeofenceTests.run(track) == [36_120])
    }

    /// Dwell across UTC midnight, with and without dates in the fixes. Local
    /// midnight (say 22:00 UTC in UTC+2) is just another instant here: the
    /// monitor measures receiver time only, and the check-in is stamped with
    /// the system clock by the adapter.
    @Test(arguments: [true, false])
    func dwellAcrossMidnight(withDate: Bool) {
        let start = 20_000 * 86_400 - 60 // 23:59:00 UTC
        var monitor = GeofenceMonitor(fences: [GeofenceTests.fence])
        var entries: [Int] = []
        for second in 0..<600 {
            let fix = GeofenceTests.fixAbsolute(Point(east: 0, north: 0), at: start + second, withDate: withDate)
            if !monitor.update(fix).isEmpty { entries.append(second) }
        }
        #expect(entries == [120])
    }

    static func fixAbsolute(_ point: Point, at absolute: Int, withDate: Bool) -> Fix {
        var fix = fix(point, at: 0, withDate: withDate)
        fix.date = withDate ? UTCDate(dayNumber: absolute / 86_400) : nil
        let within = absolute % 86_400
        fix.time = UTCTime(hour: within / 3600, minute: within / 60 % 60, second: within % 60)
        return fix
    }

    @Test func dwellIsReceiverTimeNotFixCount() {
        // One fix every 30 s: the entry comes with the fifth (120 s after the first).
        let track = GeofenceTests.stay(10)
        #expect(GeofenceTests.run(track, step: 30) == [36_000 + 120])
    }

    @Test func entryCarriesOnlyTheName() {
        var monitor = GeofenceMonitor(fences: [GeofenceTests.fence])
        var entries: [GeofenceEvent] = []
        for second in 0...120 { entries += monitor.update(GeofenceTests.fix(Point(east: 0, north: 0), at: second)) }
        #expect(entries == [GeofenceEvent(name: "hq", kind: .entered)])
        #expect(monitor.insideFences == ["hq"])
    }
}

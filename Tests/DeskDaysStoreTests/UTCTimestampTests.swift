@testable import DeskDaysStore
import Foundation
import Testing

/// The stored form of instants.
@Suite struct UTCTimestampTests {
    @Test(arguments: [
        (0.0, "1970-01-01T00:00:00.000Z"),
        (1_774_827_000.0, "2026-03-29T23:30:00.000Z"),
        (1_774_827_000.1234, "2026-03-29T23:30:00.123Z"),
        (1_774_827_000.9996, "2026-03-29T23:30:01.000Z"),
        (-0.001, "1969-12-31T23:59:59.999Z"),
        (951_825_600.0, "2000-02-29T12:00:00.000Z"),
    ])
    func formats(seconds: Double, text: String) {
        #expect(UTCTimestamp.string(from: Date(timeIntervalSince1970: seconds)) == text)
    }

    @Test func roundTripsEveryMillisecondSample() {
        var millis: Int64 = -86_400_000 * 400
        while millis < 86_400_000 * 40_000 {
            let date = Date(timeIntervalSince1970: Double(millis) / 1000)
            #expect(UTCTimestamp.date(from: UTCTimestamp.string(from: date)) == date)
            millis += 7_777_777_777
        }
    }

    @Test(arguments: ["", "2026-03-29 23:30:00.000Z", "2026-03-29T23:30:00Z", "2026-03-29T24:00:00.000Z",
                      "2026-02-30T10:00:00.000Z", "2026-03-29T23:30:00.000+", "2026-03-29T23:3a:00.000Z"])
    func rejects(text: String) {
        #expect(UTCTimestamp.date(from: text) == nil)
    }
}

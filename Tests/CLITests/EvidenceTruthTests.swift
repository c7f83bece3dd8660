import Foundation
import Spawn
import TestSupport
import Testing

/// Evidence tells the truth: a date's note is the note of the entry that
/// decided it. A day a wired check-in decided is not printed with the
/// "Sick" of the calendar event it overruled (a document meant for a
/// dispute); that note is named as overruled.
@Suite struct EvidenceTruthTests {
    @Test func onlyTheDecidingEntrysNoteIsTheDates() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let folder = cli.folder.appendingPathComponent("calendar").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nBEGIN:VEVENT\r\nUID:sick-1@test\r\nDTSTAMP:20261101T000000Z\r\nDTSTART;VALUE=DATE:20261117\r\nDTEND;VALUE=DATE:20261118\r\nSUMMARY:Sick\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
            .write(toFile: folder + "/sick.ics", atomically: true, encoding: .utf8)
        try cli.writeConfig("[policy]\ntimezone = \"UTC\"\n\n[calendar]\nfolder = \"\(folder)\"\nsick = [\"Sick\"]\n")
        let today = ["--today", "2026-11-20"]
        for arguments in [["--at", "2026-11-17T08:00:00Z"], ["--at", "2026-11-17T16:30:00Z", "--leave"]] {
            #expect(try await cli.run(["event", "--source", "wired", "--rule", "dock"] + arguments + today).status == 0)
        }
        let days = try await cli.run(["days", "--from", "2026-11-17", "--to", "2026-11-17", "--json"] + today)
        let row = try #require((try JSONSerialization.jsonObject(with: Data(days.stdout.utf8)) as? [[String: Any]])?.first)
        #expect(row["status"] as? String == "office" && row["origin"] as? String == "automatic", "\(days.stdout)")
        #expect(row["note"] == nil || row["note"] is NSNull, "the overruled calendar event's note is not the date's: \(days.stdout)")
        let page = cli.folder.appendingPathComponent("evidence.html").path
        let evidence = try await cli.run(["evidence", "--period", "2026-11-17", "--out", page] + today)
        #expect(evidence.status == 0, "\(evidence.stderr)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains("overruled calendar sick: Sick"), "the overruled note, named so")
        #expect(!html.contains("<td>Sick</td>"), "no cell gives Sick as the date's note")
    }
}

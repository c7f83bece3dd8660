import Foundation
import Spawn
import TestSupport
import Testing

/// iCalendar as RFC 5545 reads it: Outlook and Google fold long lines at
/// 75 octets, inside a multi-octet UTF-8 character when one falls there
/// (Tests/Fixtures/calendar/folded). Such a file is read, in the calendar
/// folder and by `import`, its titles whole; once it was "not UTF-8 text"
/// and the vacation it held counted as unrecorded.
@Suite struct FoldedCalendarTests {
    static let folded = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/calendar/folded")
    static let outlook = "Urlaub – Skifahren zu viert in Österreich: Kitzbühel, Zürich und Küssnacht"
    static let google = "Congés payés — journées posées de récupération après le séminaire à Évian-les-Bains"
    static let thunderbird = "Krankmeldung – Arbeitsunfähigkeitsbescheinigung ab liegt vor, Rückkehr am Montag, Grüße aus München"

    @Test func titlesFoldedInsideACharacterAreReadWhole() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        for name in ["outlook-urlaub.ics", "google-conges.ics", "thunderbird-krank.ics"] {
            let bytes = try Data(contentsOf: Self.folded.appendingPathComponent(name))
            #expect(String(data: bytes, encoding: .utf8) == nil, "\(name) is meant to be folded inside a character")
        }
        let folder = cli.folder.appendingPathComponent("calendars/work").path
        try FileManager.default.createDirectory(atPath: (folder as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.copyAsOwn(atPath: Self.folded.path, toPath: folder)
        try cli.writeConfig("""
            [calendar]
            folder = "\(folder)"
            vacation = ["\(Self.outlook)", "\(Self.google)"]
            sick = ["\(Self.thunderbird)"]
            """)
        // The default database, absent until something is written (reading creates nothing).
        let today = ["--today", "2026-11-30", "--config", cli.config]
        let days = try await cli.run(["days", "--from", "2026-11-16", "--to", "2026-11-27"] + today, paths: false)
        #expect(days.status == 0 && !days.stderr.contains("skipped"), "\(days.stderr)")
        let statuses = days.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).dropFirst(2).first.map(String.init) ?? "" }
        #expect(statuses == ["vacation", "vacation", "vacation", "vacation", "vacation", "", "",
                             "vacation", "vacation", "unrecorded", "sick", "sick"], "\(days.stdout)")
        let explain = try await cli.run(["explain", "2026-11-16"] + today, paths: false)
        #expect(explain.stdout.contains("Kitzbühel, Zürich und Küssnacht"), "\(explain.stdout)")
        // The same file through `import`: read, its title whole (not a status word: named and skipped).
        let imported = try await cli.run(["import", Self.folded.appendingPathComponent("outlook-urlaub.ics").path] + today, paths: false)
        #expect(!imported.stderr.contains("not UTF-8") && imported.stderr.contains("Österreich: Kitzbühel"), "\(imported.stderr)")
    }
}

import Foundation
import Spawn
import TestSupport
import Testing

/// The first day with real exports: a German time clock's CSV
/// imports as office dates and reconciles; a manual range decides its
/// dates and `import` says which it overruled; a JSON object is refused in one sentence.
struct ImportDialectCLITests {
    static let today = ["--today", "2026-10-20"]
    static let timeClock = "Datum;Kommen;Gehen\n01.10.2026;08:00;16:00\n02.10.2026;08:10;16:05\n05.10.2026;08:00;15:00\n"

    @Test func aTimeClockExportImportsAndReconcilesAndAManualRangeIsNamed() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let file = cli.folder.appendingPathComponent("zeit.csv").path
        try Self.timeClock.write(toFile: file, atomically: true, encoding: .utf8)
        // The README's first-day range first: it decides those dates.
        #expect(try await cli.run(["checkin", "--from", "2026-10-01", "--to", "2026-10-02", "--status", "remote"] + Self.today).status == 0)
        let imported = try await cli.run(["import", file, "--status", "office"] + Self.today)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("Imported 3 records"), "\(imported.stdout)")
        #expect(imported.stderr.contains("2 imported dates already have a manual record")
                && imported.stderr.contains("2026-10-01 and 2026-10-02"), "\(imported.stderr)")
        let days = try await cli.run(["days", "--from", "2026-10-01", "--to", "2026-10-05"] + Self.today)
        #expect(days.stdout.contains("2026-10-05") && days.stdout.split(separator: "\n").filter { $0.contains("office") }.count == 1,
                "\(days.stdout)")
        // The employer's own file: `;`, dotted dates, a "Datum" column.
        let reconciled = try await cli.run(["reconcile", file, "--from", "2026-10-01", "--to", "2026-10-05", "--json"] + Self.today)
        #expect(reconciled.status == 0 || reconciled.status == 3, "\(reconciled.stderr)")
        // The employer has 1 and 2 October in, DeskDays remote (the manual range): both named from the file's own rows.
        #expect(reconciled.stdout.contains("\"date\" : \"2026-10-01\"") && reconciled.stdout.contains("\"date\" : \"2026-10-02\"")
                && reconciled.stdout.contains("\"employer\" : \"in\""), "\(reconciled.stdout)")
    }

    @Test func aJSONObjectIsRefusedNamingTheShapeExpected() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let file = cli.folder.appendingPathComponent("one.json").path
        try #"{"date":"2026-10-01","status":"office"}"#.write(toFile: file, atomically: true, encoding: .utf8)
        let result = try await cli.run(["import", file] + Self.today)
        #expect(result.status == 1)
        #expect(result.stderr.contains(#"a list of {"date", "status"} objects"#) && !result.stderr.contains("CSV"), "\(result.stderr)")
    }
}

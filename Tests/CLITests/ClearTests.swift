import Foundation
import Spawn
import TestSupport
import Testing

/// Every kind of entry can be undone, and every removal is recorded:
/// `clear --origin`, directly and through the agent, shown by `explain`.
@Suite struct ClearTests {
    static let now = ["DESKDAYS_NOW": AgentProcess.fixedNow]
    static let day = AgentProcess.fixedDay

    func explain(_ cli: CLIRunner) async throws -> String {
        try await cli.run(["explain", Self.day], environment: Self.now).stdout
    }

    @Test func eachOriginIsRemovedOnItsOwnAndTheRemovalIsShown() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let none = ["--socket", cli.folder.appendingPathComponent("none.sock").path]
        try await cli.run(["event", "--source", "gps", "--rule", "hq", "--at", AgentProcess.fixedNow] + none, environment: Self.now)
        try await cli.run(["checkin", "--date", Self.day, "--status", "remote"] + none, environment: Self.now)
        let csv = cli.folder.appendingPathComponent("history.csv").path
        try "date,status,note\n\(Self.day),sick,\n".write(toFile: csv, atomically: true, encoding: .utf8)
        #expect(try await cli.run(["import", csv], environment: Self.now).status == 0)

        // Default: the manual record only.
        let manual = try await cli.run(["clear", "--date", Self.day] + none, environment: Self.now)
        #expect(manual.stdout.contains("Removed from \(Self.day): remote record."), "\(manual.stdout)\(manual.stderr)")
        var text = try await explain(cli)
        #expect(text.contains("check-in  gps") && text.contains("record    import"), "\(text)")
        #expect(text.contains("removed   manual    remote record"), "\(text)")

        let automatic = try await cli.run(["clear", "--date", Self.day, "--origin", "automatic"] + none, environment: Self.now)
        #expect(automatic.stdout.contains("gps check-in, rule \"hq\""), "\(automatic.stdout)")
        let again = try await cli.run(["clear", "--date", Self.day, "--origin", "automatic"] + none, environment: Self.now)
        #expect(again.stdout.contains("had no automatic entry; nothing changed"), "\(again.stdout)")
        text = try await explain(cli)
        #expect(!text.contains("check-in  gps") && text.contains("removed   automatic gps check-in, rule \"hq\""), "\(text)")
        #expect(text.contains("Resolved: sick, from the import record"), "\(text)")

        #expect(try await cli.run(["clear", "--date", Self.day, "--origin", "all"] + none, environment: Self.now).status == 0)
        text = try await explain(cli)
        #expect(text.contains("nothing is stored for this date") && text.contains("removed   import    sick record"), "\(text)")
        let bad = try await cli.run(["clear", "--date", Self.day, "--origin", "tags"] + none, environment: Self.now)
        #expect(bad.status == 1 && bad.stderr.split(separator: "\n").count == 1, "\(bad.stderr)")
    }

    @Test func clearingThroughTheAgentRecordsTheRemovalToo() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let agent = try await AgentProcess(cli)
        defer { agent.kill9() }
        let socket = ["--socket", agent.socket]
        #expect(try await cli.run(["event", "--source", "wifi", "--rule", "office", "--at", AgentProcess.fixedNow] + socket,
                            environment: Self.now).status == 0)
        let cleared = try await cli.run(["clear", "--date", Self.day, "--origin", "automatic"] + socket, environment: Self.now)
        #expect(cleared.stdout.contains("Removed from \(Self.day): wifi check-in, rule \"office\"."), "\(cleared.stdout)\(cleared.stderr)")
        #expect(try await explain(cli).contains("removed   automatic wifi check-in"))
    }
}

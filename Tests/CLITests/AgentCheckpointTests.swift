import Foundation
import Spawn
import TestSupport
import Testing

/// Copies a user can trust: the agent folds its write-ahead log into the
/// database file once it has been idle, and `deskdays backup` writes a
/// consistent copy while the agent runs.
@Suite struct AgentCheckpointTests {
    @Test func anIdleAgentFoldsItsLogSoTheDatabaseFileAloneHoldsTheHistory() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        // On a manual clock: the idle wait (3 s) passes when the test says so.
        let agent = try await AgentProcess(cli, environment: ["DESKDAYS_LOG": "debug"], manualClock: true)
        defer { agent.kill9() }
        let now = ["DESKDAYS_NOW": AgentProcess.fixedNow]
        let recorded = try await cli.run(["checkin", "--date", AgentProcess.fixedDay, "--socket", agent.socket], environment: now)
        #expect(recorded.status == 0, "\(recorded.stderr)")
        try agent.advance(seconds: 4)
        #expect(await agent.waitForLog("checkpoint: "), "\(agent.logText)")
        // Only the main file, as a user copying "the database" would.
        let copy = cli.folder.appendingPathComponent("copy.sqlite").path
        try FileManager.default.copyItem(atPath: cli.database, toPath: copy)
        let days = try await cli.run(["days", "--from", AgentProcess.fixedDay, "--to", AgentProcess.fixedDay,
                                "--config", cli.config, "--database", copy], paths: false, environment: now)
        #expect(days.stdout.contains("office"), "the copy lacks the check-in: \(days.stdout)\(days.stderr)")

        // A backup taken while the agent runs holds it too, and never overwrites.
        let backup = cli.folder.appendingPathComponent("backup.sqlite").path
        let written = try await cli.run(["backup", backup], environment: now)
        #expect(written.status == 0 && written.stdout.contains("Wrote a copy"), "\(written.stderr)")
        let fromBackup = try await cli.run(["days", "--from", AgentProcess.fixedDay, "--to", AgentProcess.fixedDay,
                                      "--config", cli.config, "--database", backup], paths: false, environment: now)
        #expect(fromBackup.stdout.contains("office"), "\(fromBackup.stdout)\(fromBackup.stderr)")
        let before = try Data(contentsOf: URL(fileURLWithPath: backup))
        let again = try await cli.run(["backup", backup], environment: now)
        #expect(again.status == 1 && again.stderr.contains("never overwrites"), "\(again.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: backup)) == before)
        var info = stat()
        #expect(stat(backup, &info) == 0 && info.st_mode & 0o777 == 0o600)
    }
}

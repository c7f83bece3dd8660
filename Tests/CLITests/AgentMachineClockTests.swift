import Foundation
import Spawn
import TestSupport
import Testing

/// Two dates are never one in the agent either: `DESKDAYS_NOW` sets the
/// date it answers for, while its journal lines are stamped by this
/// machine's clock (docs/design.md "Two dates").
struct AgentMachineClockTests {
    @Test func anAgentStartedWithAFixedNowStampsItsJournalWithTheMachinesClock() async throws {
        let folder = try SyncDevicesTests.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig("[sync]\nfolder = \"\(folder)\"\ndevice_name = \"laptop\"\n")
        // Read around the write: the stamp must fall between (the fixed now, 2026-03-10, is far from both).
        let before = Int64(Date().timeIntervalSince1970 * 1000)
        let agent = try await AgentProcess(cli)
        defer { agent.kill9() }
        let now = ["DESKDAYS_NOW": AgentProcess.fixedNow]
        let checkin = try await cli.run(["checkin", "--status", "office", "--socket", agent.socket], environment: now)
        #expect(checkin.status == 0 && checkin.stdout.contains(AgentProcess.fixedDay), "\(checkin.stdout)\(checkin.stderr)")
        // Written by the agent, not by the command itself (which always used the machine's clock).
        #expect(await agent.waitForLog("manual office recorded for \(AgentProcess.fixedDay)"), "\(agent.logText)")
        #expect(await agent.stop() == 0)
        let after = Int64(Date().timeIntervalSince1970 * 1000)
        let journals = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".jsonl") }
        try #require(journals.count == 1, "\(journals)")
        let lines = try String(contentsOfFile: folder + "/" + journals[0], encoding: .utf8).split(separator: "\n")
        let record = try #require(lines.compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
            .first { $0["op"] as? String == "record" && $0["date"] as? String == AgentProcess.fixedDay }, "\(lines)")
        let hlc = try #require((record["hlc"] as? NSNumber)?.int64Value)
        // The answer is for the fixed date; the stamp is the machine's.
        #expect(hlc >= before - 1000 && hlc <= after + 1000,
                "stamped \(Date(timeIntervalSince1970: Double(hlc) / 1000)), not between \(before) and \(after): \(record)")
    }
}

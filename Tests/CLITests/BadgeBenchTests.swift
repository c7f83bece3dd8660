import Foundation
import Spawn
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Badges as they are, through a real pcscd + vpcd and the real CLI and
/// agent: a card whose UID is random (4 bytes from 0x08) or changes between
/// taps is refused by `enroll nfc` and never stored by the agent (said once
/// in its log, without the numbers), and a reader named as a SAM slot is
/// never read.
@Suite(.tags(.hardwareBench), .serialized, .enabled(if: AgentBench.available, AgentBench.skipReason))
struct BadgeBenchTests {
    /// Random IDs as ISO/IEC 14443-3 makes them: 4 bytes, the first 0x08.
    static func randomUID() -> String {
        "08" + (0..<3).map { _ in String(format: "%02X", UInt8.random(in: 0...255)) }.joined()
    }

    static func configuration(rules: [(String, String)]) -> String {
        let day = BenchDay()
        return """
        [policy]
        timezone = "\(day.timezone)"
        workdays = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]

        [checkin]
        reminder_time = "off"
        fallback_time = "off"

        [nfc]
        enabled = true
        backend = "pcsc"

        """ + rules.map { "[[nfc.tags]]\nname = \"\($0.0)\"\nuid = \"\($0.1)\"\n" }.joined(separator: "\n")
    }

    /// `enroll nfc` against the private pcscd, with the card already on the reader.
    func enroll(_ cli: CLIRunner, _ environment: [String: String]) async throws -> CLIRunner.Result {
        try await cli.run(["enroll", "nfc", "--backend", "pcsc", "--timeout", "30"], environment: environment)
    }


    @Test func enrollRefusesARandomUIDAndLeavesTheConfigurationAsItWas() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig(Self.configuration(rules: []))
        let before = try Data(contentsOf: URL(fileURLWithPath: cli.config))
        let pcscd = try await PrivatePCSCD(in: cli.folder)
        defer { pcscd.stop() }
        let uid = Self.randomUID()
        let card = try await pcscd.card(uid: uid, in: cli.folder)
        await card.insert()
        let result = try await enroll(cli, AgentBench.environment(pcscd))
        await card.remove()
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let refusal = result.stderr.split(whereSeparator: \.isNewline).last.map(String.init) ?? ""
        #expect(refusal.contains("new number on every tap"), "\(result.stderr)")
        #expect(refusal.contains("NTAG sticker") && refusal.contains("QR code"), "names what works instead: \(refusal)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: cli.config)) == before, "the configuration is left byte for byte")
        #expect(await card.reads >= 1, "the enrolment really read the card")
    }

    @Test func enrollRefusesAUIDThatChangesBetweenTaps() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig(Self.configuration(rules: []))
        let before = try Data(contentsOf: URL(fileURLWithPath: cli.config))
        let pcscd = try await PrivatePCSCD(in: cli.folder)
        defer { pcscd.stop() }
        // 7-byte UIDs (not "random" by the standard's mark), but a different one on each tap.
        let card = try await pcscd.card(uid: "04112233445566", in: cli.folder)
        await card.insert()
        // The user's side of it: present, wait for "take it away", present again.
        let errors = cli.folder.appendingPathComponent("enroll.err").path, output = cli.folder.appendingPathComponent("enroll.out").path
        let enroll = try await Child.start(CLIRunner.binary, ["enroll", "nfc", "--backend", "pcsc", "--timeout", "30",
                                                              "--config", cli.config, "--database", cli.database],
                                           overrides: AgentBench.environment(pcscd).mapValues { $0 },
                                           stdout: .file(output), stderr: .file(errors))
        var stderr: String { (try? String(contentsOfFile: errors, encoding: .utf8)) ?? "" }
        #expect(await eventually("\"Now take it away\" from enroll in \(errors)") { stderr.contains("Now take it away") }, "\(stderr)")
        await card.remove()
        // pcscd polls vpcd about every 400 ms: a card put back sooner never left.
        #expect(await pcscd.waitForSlot("Virtual PCD 00 00", "empty"), "pcscd saw the card leave")
        await card.show(uid: "04778899AABBCC")
        await card.insert()
        let status = await enroll.wait(seconds: 60)
        let stdout = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        await card.remove()
        #expect(status == 1, "\(stdout)\(stderr)")
        #expect(stderr.contains("showed a different number on the second tap"), "\(stderr)")
        #expect(stderr.contains("NTAG sticker"), "names what works instead: \(stderr)")
        #expect(!stdout.contains("04112233445566"), "no rule was printed for it")
        #expect(try Data(contentsOf: URL(fileURLWithPath: cli.config)) == before)
    }

    @Test func theAgentStoresNothingForARandomUIDAndSaysSoOnce() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let day = BenchDay()
        try cli.writeConfig(Self.configuration(rules: [("desk", AgentBenchTests.deskUID)]))
        let pcscd = try await PrivatePCSCD(in: cli.folder)
        defer { pcscd.stop() }
        let agent = try await AgentProcess(cli, environment: AgentBench.environment(pcscd).merging([
            "DESKDAYS_NOW": day.instant(at: "09:00", minusSeconds: 0),
        ]) { $1 })
        defer { agent.kill9() }
        #expect(await agent.waitForLog("NFC reader ready"), "\(agent.logText)")

        let badge = try await pcscd.card(uid: Self.randomUID(), in: cli.folder)
        var shown: [String] = []
        for _ in 0..<3 {
            let uid = Self.randomUID()
            shown.append(uid)
            await badge.show(uid: uid)
            await badge.insert()
            #expect(await badge.waitRead(), "the agent read tap \(shown.count)")
            await badge.remove()
        }
        // The sticker on the same reader afterwards: taps are handled in order,
        // so once it is stored the badge's taps were all seen.
        let sticker = try await pcscd.card(uid: AgentBenchTests.deskUID, in: cli.folder)
        await sticker.insert()
        #expect(await agent.waitForLog("nfc check-in stored for \(day.date)"), "\(agent.logText)")
        await sticker.remove()

        let log = agent.logText
        #expect(log.components(separatedBy: "this card shows a new number on every tap").count == 2, "said once: \(log)")
        for uid in shown { #expect(!log.contains(uid), "no UID in the log") }
        #expect(log.components(separatedBy: "nfc check-in stored").count == 2, "only the sticker was stored")
        #expect(await agent.stop() == 0)
        let explain = try await cli.run(["explain", day.date]).stdout
        #expect(explain.components(separatedBy: "check-in  nfc").count == 2, "\(explain)")
        #expect(explain.contains("rule \"desk\""), "\(explain)")
    }

    /// `[nfc] feedback`: a reader named as an ACS ACR122U gets its LED and
    /// buzzer pseudo-APDU on each tap, green and one beep for the desk tag,
    /// red and two beeps for a tag no rule knows; sent while the tag is still
    /// there, before the check-in is stored (so once it is, the command came).
    /// With `feedback = false` the reader gets nothing.
    @Test(arguments: [true, false])
    func anACR122UBlinksAndBeepsForEachTap(feedback: Bool) async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let day = BenchDay()
        try cli.writeConfig(Self.configuration(rules: [("desk", AgentBenchTests.deskUID)])
            .replacingOccurrences(of: "backend = \"pcsc\"\n", with: "backend = \"pcsc\"\nfeedback = \(feedback)\n"))
        let pcscd = try await PrivatePCSCD(in: cli.folder, readerName: "ACS ACR122U PICC Interface")
        defer { pcscd.stop() }
        let agent = try await AgentProcess(cli, environment: AgentBench.environment(pcscd).merging([
            "DESKDAYS_NOW": day.instant(at: "09:00", minusSeconds: 0),
        ]) { $1 })
        defer { agent.kill9() }
        #expect(await agent.waitForLog("NFC reader ready"), "\(agent.logText)")
        #expect(agent.logText.contains("ACS ACR122U PICC Interface 00 00"), "\(agent.logText)")

        let card = try await pcscd.card(uid: AgentBenchTests.deskUID, in: cli.folder)
        await card.insert()
        #expect(await agent.waitForLog("nfc check-in stored for \(day.date)"), "\(agent.logText)")
        await card.remove()
        #expect(await pcscd.waitForSlot("ACS ACR122U PICC Interface 00 00", "empty"), "pcscd saw the tag leave")
        await card.show(uid: "04DEADBEEF0001")
        await card.insert()
        #expect(await agent.waitForLog("unknown tag"), "\(agent.logText)")
        await card.remove()
        let green = "FF0040A80401010101", red = "FF0040540401010201"
        if feedback {
            let sent = await card.others(2)
            #expect(sent == [green, red], "\(sent) \(agent.logText)")
        } else {
            // Both taps were handled (stored, then named unknown): nothing was sent.
            #expect(await card.others(0, seconds: 0) == [])
        }
        #expect(await agent.stop() == 0)
    }

    /// vpcd is a two-slot reader ("Virtual PCD 00 00" and "00 01"); with
    /// `[nfc] reader` naming the first, a card with a configured UID in the
    /// second slot is never asked for its UID. (vpcd cannot give a slot a
    /// name with "SAM" in it, so the SAM rule itself is proven with the
    /// scripted reader, ReaderLogicTests, and doctor's listing, DoctorTests.)
    @Test func onlyTheConfiguredSlotIsReadAndDoctorSaysSo() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let day = BenchDay()
        try cli.writeConfig(Self.configuration(rules: [("desk", AgentBenchTests.deskUID), ("door", "04A1A2A3A4A5A6")])
                            .replacingOccurrences(of: "backend = \"pcsc\"\n", with: "backend = \"pcsc\"\nreader = \"Virtual PCD 00 00\"\n"))
        let pcscd = try await PrivatePCSCD(in: cli.folder)
        defer { pcscd.stop() }

        let doctor = try await cli.run(["doctor", "--socket", cli.folder.appendingPathComponent("none.sock").path],
                                 environment: AgentBench.environment(pcscd))
        #expect(doctor.stdout.contains("Virtual PCD 00 00, Virtual PCD 00 01 (not the [nfc] reader)"), "\(doctor.stdout)")

        let other = try await pcscd.card(uid: AgentBenchTests.deskUID, port: BenchCard.secondSlot, in: cli.folder)
        await other.insert()
        let agent = try await AgentProcess(cli, environment: AgentBench.environment(pcscd).merging([
            "DESKDAYS_NOW": day.instant(at: "09:00", minusSeconds: 0),
        ]) { $1 })
        defer { agent.kill9() }
        #expect(await agent.waitForLog("NFC reader ready"), "\(agent.logText)")
        let door = try await pcscd.card(uid: "04A1A2A3A4A5A6", in: cli.folder)
        await door.insert()
        #expect(await agent.waitForLog("nfc check-in stored for \(day.date)"), "\(agent.logText)")
        await door.remove()
        #expect(await agent.stop() == 0)
        await other.remove()
        #expect(await other.reads == 0, "the card in the other slot was never asked for its UID: \(agent.logText)")
        #expect(!agent.logText.contains("Virtual PCD 00 01"), "the other slot is not watched: \(agent.logText)")
        let explain = try await cli.run(["explain", day.date]).stdout
        #expect(explain.contains("rule \"door\"") && !explain.contains("rule \"desk\""), "\(explain)")
    }
}

import DeskDaysConfig
import Foundation
import NFCAdapter
import Spawn
import TestSupport
import Testing

/// End to end through libnfc's pn532_uart driver against the PN532
/// emulator on a pty; events go through the real pipeline into a store.
///
/// As in `PCSCBenchTests`, nothing waits for time to pass: a tag is held
/// until its event (or logged decision) came, taken away until libnfc polls
/// for targets again, and that no event came is shown by the next tag's
/// event being the next one.
@Suite(.tags(.hardwareBench), .serialized, .enabled(if: Tools.libnfcBench, Tools.libnfcSkipReason), .pn532)
struct LibNFCBenchTests {
    let emulator = PN532Emulator.current!

    func adapter(_ tags: [NFCSettings.Tag] = PCSCBenchTests.rules) throws -> AdapterRun {
        let connstring = emulator.connstring
        emulator.resetPolling()
        return try AdapterRun(tags: tags) { NFCTagReader.libnfc(connstring: connstring, logger: $0) }
    }

    /// Takes the tag away and waits until libnfc polls for targets again:
    /// the adapter saw it leave and re-armed.
    func remove() async {
        emulator.resetPolling()
        emulator.remove()
        #expect(await emulator.waitUntilPolled())
    }

    /// Removes the tag, presents `tag` and expects its event to be the next
    /// one: nothing came in between from what was there before.
    func nextEventIs(_ rule: String, presenting tag: VirtualTag, _ run: AdapterRun) async throws {
        let before = run.events.count
        await remove()
        try emulator.present(tag)
        #expect(await run.waitForEvents(before + 1))
        #expect(run.rules.dropFirst(before).first == rule, "\(run.rules)")
        emulator.remove()
    }

    @Test func tapStoresOneCheckInWithTheRule() async throws {
        let run = try adapter()
        try emulator.present(PCSCBenchTests.deskTag)
        #expect(await run.waitForEvents(1))
        #expect(try run.storedCheckIns().map(\.rule) == ["desk"])
        try await nextEventIs("hq", presenting: PCSCBenchTests.hqTag, run)
        await run.stop()
        #expect(run.rules == ["desk", "hq"])
    }

    @Test func ndefTextRuleMatchesAnUnknownUID() async throws {
        let run = try adapter()
        try emulator.present(PCSCBenchTests.hqTag)
        #expect(await run.waitForEvents(1))
        try await nextEventIs("desk", presenting: PCSCBenchTests.deskTag, run)
        await run.stop()
        #expect(run.rules == ["hq", "desk"])
    }

    /// A tag left in the field while libnfc checks it again and again is one tap.
    @Test func restingTagIsOneTap() async throws {
        let run = try adapter()
        try emulator.present(PCSCBenchTests.deskTag)
        #expect(await run.waitForEvents(1))
        let seen = emulator.checks
        #expect(await eventually("libnfc to check the resting tag 10 more times") { emulator.checks >= seen + 10 })
        try await nextEventIs("hq", presenting: PCSCBenchTests.hqTag, run)
        await run.stop()
        #expect(run.rules == ["desk", "hq"])
    }

    @Test func tapRemoveTapIsTwoTapsAndOneStoredCheckIn() async throws {
        let run = try adapter()
        try emulator.present(PCSCBenchTests.deskTag)
        #expect(await run.waitForEvents(1))
        await remove()
        try emulator.present(PCSCBenchTests.deskTag)
        #expect(await run.waitForEvents(2))
        #expect(try run.storedCheckIns().count == 1)
        try await nextEventIs("hq", presenting: PCSCBenchTests.hqTag, run)
        await run.stop()
        #expect(run.rules == ["desk", "desk", "hq"])
    }

    @Test func unknownTagMakesNoEvent() async throws {
        let run = try adapter()
        try emulator.present(.text("someone else's tag", uid: VirtualTag.strangerUID))
        #expect(await run.waitForLog("unknown tag"))
        #expect(run.events.isEmpty)
        #expect(try run.storedCheckIns().isEmpty)
        try await nextEventIs("desk", presenting: PCSCBenchTests.deskTag, run)
        await run.stop()
        #expect(run.rules == ["desk"])
    }

    @Test func corruptNDEFAreaStillMatchesByUID() async throws {
        let run = try adapter([PCSCBenchTests.rules[1], PCSCBenchTests.rules[0]])
        try emulator.present(.corrupt())
        #expect(await run.waitForEvents(1))
        try await nextEventIs("hq", presenting: PCSCBenchTests.hqTag, run)
        await run.stop()
        #expect(run.rules == ["desk", "hq"])
    }

    @Test func pn532VanishesAndComesBackThenTapsWorkAgain() async throws {
        let run = try adapter()
        try emulator.present(PCSCBenchTests.deskTag)
        #expect(await run.waitForEvents(1))
        emulator.remove()
        await emulator.stop()
        #expect(await run.waitForLog("NFC device unavailable"))
        try await emulator.start()
        // Back once it reopened the device (its backoff may have grown meanwhile) and polls.
        #expect(await run.waitForLog("NFC device is back"))
        #expect(await emulator.waitUntilPolled())
        try emulator.present(PCSCBenchTests.deskTag)
        #expect(await run.waitForEvents(2))
        emulator.remove()
        await run.stop()
        #expect(run.rules == ["desk", "desk"])
        #expect(run.logs.count("NFC device unavailable") == 1, "said once: \(run.logs.lines)")
    }
}

import DeskDaysConfig
import Foundation
import Logging
import NFCAdapter
import TestSupport
import Testing

/// End to end through a real pcscd with the vpcd virtual reader and a
/// virtual Type 2 tag; events go through the real pipeline into a store.
@Suite(.tags(.hardwareBench), .serialized, .enabled(if: Tools.pcscBench, Tools.pcscSkipReason), .pcscd)
struct PCSCBenchTests {
    static let rules = [
        NFCSettings.Tag(name: "desk", uid: VirtualTag(uid: VirtualTag.deskUID, area: []).uidHex),
        NFCSettings.Tag(name: "hq", ndef: "deskdays:office:hq"),
    ]

    let daemon = PCSCDaemon.current!

    func adapter(_ tags: [NFCSettings.Tag] = rules) throws -> AdapterRun {
        try AdapterRun(tags: tags) { NFCTagReader.pcsc(logger: testLogger) }
    }

    /// What `doctor` asks pcscd: the real reader list, read-only.
    @Test func pcscdListsTheVirtualReaderForDoctor() throws {
        let names = try #require(NFCTagReader.pcscReaderNames(), "pcscd did not answer")
        #expect(names.contains { $0.hasPrefix("Virtual PCD") }, "\(names)")
    }

    @Test func tapStoresOneCheckInWithTheRule() async throws {
        let run = try adapter()
        let card = try daemon.card(VirtualTag(uid: VirtualTag.deskUID, area: [0x03, 0x00, 0xFE]))
        await card.tap()
        #expect(await run.waitForEvents(1))
        await settle()
        await run.stop()
        card.quit()
        #expect(run.events.map(\.rule) == ["desk"])
        #expect(try run.storedCheckIns().map(\.rule) == ["desk"])
    }

    @Test func ndefTextRuleMatchesAnUnknownUID() async throws {
        let run = try adapter()
        let card = try daemon.card(.text("deskdays:office:hq", uid: VirtualTag.strangerUID))
        await card.tap()
        #expect(await run.waitForEvents(1))
        await settle()
        await run.stop()
        card.quit()
        #expect(run.events.map(\.rule) == ["hq"])
    }

    @Test func restingTagIsOneTap() async throws {
        let run = try adapter()
        let card = try daemon.card(.text("hello"))
        await card.tap(holding: 3)
        await settle()
        await run.stop()
        card.quit()
        #expect(run.events.map(\.rule) == ["desk"])
    }

    @Test func tapRemoveTapIsTwoTapsAndOneStoredCheckIn() async throws {
        let run = try adapter()
        let card = try daemon.card(.text("hello"))
        await card.tap()
        #expect(await run.waitForEvents(1))
        try await Task.sleep(for: .seconds(0.8))
        await card.tap()
        #expect(await run.waitForEvents(2))
        await settle()
        await run.stop()
        card.quit()
        #expect(run.events.map(\.rule) == ["desk", "desk"])
        #expect(try run.storedCheckIns().count == 1)
    }

    @Test func unknownTagMakesNoEvent() async throws {
        let run = try adapter()
        let card = try daemon.card(.text("someone else's tag", uid: VirtualTag.strangerUID))
        await card.tap(holding: 1.5)
        await settle(1.5)
        await run.stop()
        card.quit()
        #expect(run.events.isEmpty)
        #expect(try run.storedCheckIns().isEmpty)
    }

    @Test func corruptNDEFAreaStillMatchesByUID() async throws {
        // The NDEF rule comes first, so the pages are read and fail to parse.
        let run = try adapter([Self.rules[1], Self.rules[0]])
        let card = try daemon.card(.corrupt())
        await card.tap()
        #expect(await run.waitForEvents(1))
        await settle()
        await run.stop()
        card.quit()
        #expect(run.events.map(\.rule) == ["desk"])
    }

    @Test func pcscdKilledAndRestartedThenTapsWorkAgain() async throws {
        let run = try adapter()
        var card = try daemon.card(.text("hello"))
        await card.tap()
        #expect(await run.waitForEvents(1))
        card.quit()
        try daemon.kill()
        try await Task.sleep(for: .seconds(1))
        try daemon.start()
        card = try daemon.card(.text("hello"))
        // The adapter retries with backoff (0.5, 1, 2 s…): tap until seen.
        var seen = false
        for _ in 0..<30 where !seen { // at most a minute: the backoff may have grown while pcscd was away
            await card.tap()
            seen = await run.waitForEvents(2, seconds: 2)
        }
        await run.stop()
        card.quit()
        #expect(seen)
        #expect(run.events.map(\.rule) == ["desk", "desk"])
    }
}
